import CPixman
import MarqueeCore

/// Turns a display list into pixels (SPEC §6): the background, then each item in order: section
/// headers as text, cards as cached rasters composited with pixman (OVER).
public final class Renderer {
    private let library: FreeTypeLibrary
    private let fontOverride: String?
    private var locator: FontLocator?
    private var style: Style?
    private var fonts: FontSet?
    private var rasterizer: CardRasterizer?
    private var headerColor: PixmanImage?
    private let cache: CardRasterCache
    /// The pixman image over the buffer last drawn into, kept while the buffer stays the same.
    private var target: (buffer: PixelBuffer, image: PixmanImage)?

    /// `fontOverride` is a font file used for every role instead of the style's fontconfig
    /// patterns (`--font PATH`); it is checked at once so a wrong path fails at start.
    public init(fontOverride: String? = nil, cacheBudgetBytes: Int = 48 << 20) throws(RenderError) {
        library = try FreeTypeLibrary()
        self.fontOverride = fontOverride
        cache = CardRasterCache(budgetBytes: cacheBudgetBytes)
        if let fontOverride { _ = try FontFace(library: library, path: fontOverride, pixelSize: 16) }
    }

    /// Opens the fonts `style` names; call before showing a deck so that a deck whose fonts are
    /// missing is refused while the old one stays on screen.
    public func prepare(style newStyle: Style) throws(RenderError) {
        if newStyle == style { return }
        let fonts = try FontSet(
            style: newStyle, library: library, locator: { () throws(RenderError) in try self.fontLocator() },
            override: fontOverride)
        let textColor = try PixmanImage(solid: pixman_color_t(newStyle.textColor))
        headerColor = try PixmanImage(solid: pixman_color_t(newStyle.headerColor))
        rasterizer = CardRasterizer(style: newStyle, fonts: fonts, textColor: textColor)
        self.fonts = fonts
        style = newStyle
        cache.removeAll()
    }

    private func fontLocator() throws(RenderError) -> FontLocator {
        if let locator { return locator }
        let created = try FontLocator()
        locator = created
        return created
    }

    /// Glyphs rasterized so far by the current style's faces.
    public var rasterizedGlyphCount: Int { fonts?.rasterizedGlyphCount ?? 0 }
    /// Card images drawn so far (misses of the card raster cache).
    public var rasterizedCardCount: Int { cache.rasterizedCount }

    public func render(_ list: DisplayList, deck: Deck, into buffer: PixelBuffer) throws(RenderError) {
        try prepare(style: deck.style)
        guard let rasterizer, let fonts, let headerColor else { return }
        let image = try targetImage(for: buffer)
        var background = pixman_color_t(list.background)
        var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(buffer.width), y2: Int32(buffer.height))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, image.handle, &background, 1, &box)
        for item in list.items {
            switch item.content {
            case .header(let section):
                guard let title = deck.sections[section].title else { continue }
                try drawHeader(title, item, fonts: fonts, color: headerColor, onto: image)
            case .leavingHeader(let title, _):
                try drawHeader(title, item, fonts: fonts, color: headerColor, onto: image)
            case .card(_, let section, let itemIndex):
                try drawCard(deck.sections[section].cards[itemIndex], item, rasterizer: rasterizer, onto: image)
            case .leavingCard(let card, _):
                try drawCard(card, item, rasterizer: rasterizer, onto: image)
            }
        }
    }

    /// Header text, vertically centered on the cap height (about 0.7 of the size). Headers move
    /// with transitions but are not scaled or rotated; they take the item's opacity.
    private func drawHeader(
        _ title: String, _ item: DisplayList.Item, fonts: FontSet, color: PixmanImage, onto image: PixmanImage
    )
        throws(RenderError)
    {
        guard item.alpha > 0, let style,
            let line = TextLayout.lines(title, face: fonts.header, maximumWidth: item.frame.width, maximumLines: 1)
                .first
        else { return }
        let source =
            item.alpha < 1 ? try PixmanImage(solid: pixman_color_t(style.headerColor, opacity: item.alpha)) : color
        let baseline = item.frame.y + item.frame.height / 2 + 0.35 * Double(fonts.header.pixelSize)
        TextPainter.draw(line, face: fonts.header, color: source, onto: image, x: item.frame.x, baseline: baseline)
    }

    /// Composites the card's cached raster (drawn on first use at the frame's pixel size).
    private func drawCard(_ card: Card, _ item: DisplayList.Item, rasterizer: CardRasterizer, onto image: PixmanImage)
        throws(RenderError)
    {
        let width = Int(item.frame.width.rounded())
        let height = Int(item.frame.height.rounded())
        guard width > 0, height > 0 else { return }
        let raster = try cache.image(for: .init(card: card, width: width, height: height)) { () throws(RenderError) in
            try rasterizer.rasterize(card, width: width, height: height)
        }
        try CardCompositor.draw(raster, item, onto: image)
    }

    private func targetImage(for buffer: PixelBuffer) throws(RenderError) -> PixmanImage {
        if let target, target.buffer === buffer { return target.image }
        let image = try PixmanImage(
            wrapping: UnsafeMutableRawPointer(buffer.baseAddress), format: PIXMAN_x8r8g8b8, width: buffer.width,
            height: buffer.height, stride: buffer.stride * 4)
        target = (buffer, image)
        return image
    }
}
