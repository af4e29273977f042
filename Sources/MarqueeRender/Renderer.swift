import CPixman
import MarqueeCore

/// Turns a display list into pixels (SPEC §6): the background, then each item in order: section
/// headers as text (`HeaderPainter`), cards as cached rasters composited with pixman (OVER), both
/// with their presented opacity, scale and turn.
public final class Renderer {
    private let library: FreeTypeLibrary
    private let fontOverride: String?
    private var locator: FontLocator?
    private var style: Style?
    private var fonts: FontSet?
    private var rasterizer: CardRasterizer?
    private var headerColor: PixmanImage?
    private let cache: CardRasterCache
    /// Text layers of cards drawn as they are (the common case).
    private let textLayers: CardRasterCache
    /// Cards drawn once without a text layer (bounded: cleared past 4096 entries). Its room is
    /// reserved at once: growing rehashes every key, thousands of texts in one frame.
    private var sightedOnce = Set<CardRasterCache.Key>(minimumCapacity: sightedOnceLimit + 1)
    private static let sightedOnceLimit = 4096
    /// Text layers made in the frame being drawn. Making a layer costs more than drawing the text
    /// glyph by glyph, so when a scroll slows down and many cards come back at once (the end of
    /// an ease-in-out), the layers are spread over the next frames instead of all made in one.
    private var layersMadeThisFrame = 0
    private static let layersPerFrame = 2
    /// Backgrounds shared by every card of the same size, fill and accent.
    private var backgrounds: [BackgroundKey: PixmanImage] = [:]
    private var textColor: PixmanImage?
    /// Section headers: their laid-out titles and, for transformed ones, their images.
    private let headers = HeaderPainter()
    /// Per item of the frame being drawn, its card's interior when drawn over the uniform background.
    private var interiors: [CardInterior?] = []
    /// The background's boxes around the cards written as constants (storage kept across frames).
    private var uncovered = UncoveredBoxes()

    private struct BackgroundKey: Hashable {
        var width: Int
        var height: Int
        var color: Color?
        var accent: Color?
    }
    /// A frame buffer drawn into: wrapped once (backends alternate between two or three, and
    /// wrapping one anew each frame allocated), with a record of the frame it holds.
    private struct Target {
        let buffer: PixelBuffer
        let image: PixmanImage
        var drawn = DrawnFrame.unknown
    }
    private var targets: [Target] = []
    /// The frame being drawn, described item by item (storage kept across frames).
    private var wanted = DrawnFrame()
    private var damage = FrameDamage()

    /// `fontOverride` is a font file used for every role instead of the style's fontconfig
    /// patterns (`--font PATH`); it is checked at once so a wrong path fails at start.
    public init(fontOverride: String? = nil, cacheBudgetBytes: Int = 48 << 20) throws(RenderError) {
        library = try FreeTypeLibrary()
        self.fontOverride = fontOverride
        cache = CardRasterCache(budgetBytes: cacheBudgetBytes / 2)
        textLayers = CardRasterCache(budgetBytes: cacheBudgetBytes / 2)
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
        self.textColor = textColor
        self.fonts = fonts
        style = newStyle
        cache.removeAll()
        textLayers.removeAll()
        sightedOnce.removeAll(keepingCapacity: true)
        backgrounds.removeAll()
        headers.removeAll()
        // Every buffer holds frames drawn in the old style.
        for index in targets.indices { targets[index].drawn = .unknown }
    }

    private func fontLocator() throws(RenderError) -> FontLocator {
        if let locator { return locator }
        let created = try FontLocator()
        locator = created
        return created
    }

    /// Glyphs rasterized so far by the current style's faces.
    public var rasterizedGlyphCount: Int { fonts?.rasterizedGlyphCount ?? 0 }
    /// Card images drawn so far (full rasters and text layers: misses of their caches).
    public var rasterizedCardCount: Int { cache.rasterizedCount + textLayers.rasterizedCount }

    /// Draws `list` into `buffer` and returns the rows that changed in it: only what differs from
    /// the frame the buffer already holds is redrawn (each buffer's last frame is remembered), so
    /// a frame where one card changed touches that card's rows. Empty when nothing changed.
    @discardableResult
    public func render(_ list: DisplayList, deck: Deck, into buffer: PixelBuffer) throws(RenderError) -> Range<Int> {
        try prepare(style: deck.style)
        guard let rasterizer, let fonts, let headerColor else { return 0..<buffer.height }
        let target = try targetIndex(for: buffer)
        let image = targets[target].image
        describe(list, deck: deck, width: buffer.width, height: buffer.height, headerReach: fonts.header.pixelSize)
        damage.compute(from: targets[target].drawn, to: wanted)
        // The buffer's record becomes this frame (the old record's storage is reused next frame);
        // a frame that fails part-way leaves the buffer's content unknown.
        swap(&targets[target].drawn, &wanted)
        guard !damage.bands.isEmpty else { return 0..<0 }
        layersMadeThisFrame = 0
        planInteriors(list, deck: deck)
        do {
            if damage.bands.count == 1, damage.bands[0] == 0..<buffer.height {
                try draw(list, deck: deck, rows: nil, target: target, with: (rasterizer, fonts, headerColor))
            } else {
                for band in damage.bands {
                    image.clip(toRows: band)
                    defer { image.clip(toRows: nil) }
                    try draw(list, deck: deck, rows: band, target: target, with: (rasterizer, fonts, headerColor))
                }
            }
        } catch {
            targets[target].drawn = .unknown
            throw error
        }
        return damage.covering
    }

    /// Describes the frame `list` draws, item by item, into `wanted`.
    private func describe(_ list: DisplayList, deck: Deck, width: Int, height: Int, headerReach: Int) {
        wanted.width = width
        wanted.height = height
        wanted.background = list.background
        wanted.items.removeAll(keepingCapacity: true)
        // Cards draw within their frame, but for antialiasing and filtering; a header's glyphs can
        // be taller than its row (by up to its font size, scaled with it, plus the filter's reach
        // when it is transformed).
        let cardReach = 3.0
        for item in list.items {
            let headerItemReach = Double(headerReach) * max(1, item.scale) + cardReach
            switch item.content {
            case .card(_, let section, let itemIndex):
                wanted.items.append(
                    DrawnItem(item, look: .card(deck.sections[section].cards[itemIndex]), reach: cardReach))
            case .leavingCard(let card, _):
                wanted.items.append(DrawnItem(item, look: .card(card), reach: cardReach))
            case .header(let section):
                wanted.items.append(
                    DrawnItem(item, look: .header(deck.sections[section].title), reach: headerItemReach))
            case .leavingHeader(let title, _):
                wanted.items.append(DrawnItem(item, look: .header(title), reach: headerItemReach))
            }
        }
    }

    /// Draws the background and every item that reaches `rows` (all of them when nil; the image's
    /// clip then keeps pixman within the rows, and the turned-card compositor is told them).
    private func draw(
        _ list: DisplayList, deck: Deck, rows: Range<Int>?, target: Int,
        with tools: (rasterizer: CardRasterizer, fonts: FontSet, headerColor: PixmanImage)
    ) throws(RenderError) {
        let (rasterizer, fonts, headerColor) = tools
        let image = targets[target].image
        fillBackground(list.background, of: image)
        for (index, item) in list.items.enumerated() {
            if let rows, !targets[target].drawn.items[index].rows.overlaps(rows) { continue }
            if let interior = interiors[index] {
                try drawCardOverUniformBackground(interior, item, rasterizer: rasterizer, onto: image)
                continue
            }
            switch item.content {
            case .header(let section):
                guard let title = deck.sections[section].title else { continue }
                try headers.draw(
                    title, item, face: fonts.header, color: headerColor, direction: deck.style.direction,
                    align: deck.style.align, onto: image, rows: rows)
            case .leavingHeader(let title, _):
                try headers.draw(
                    title, item, face: fonts.header, color: headerColor, direction: deck.style.direction,
                    align: deck.style.align, onto: image, rows: rows)
            case .card(_, let section, let itemIndex):
                try drawCard(
                    deck.sections[section].cards[itemIndex], item, rasterizer: rasterizer, onto: image, rows: rows)
            case .leavingCard(let card, _):
                try drawCard(card, item, rasterizer: rasterizer, onto: image, rows: rows)
            }
        }
    }

    /// Composites a card. Drawn as it is (the common case), it is its size's shared background and
    /// its cached text layer through the text color: OVER is associative, so this equals drawing
    /// the text into the background first, without a full-size image per card. Transformed, faded
    /// or tinted cards are composited from one cached raster of the whole card.
    private func drawCard(
        _ card: Card, _ item: DisplayList.Item, rasterizer: CardRasterizer, onto image: PixmanImage, rows: Range<Int>?
    ) throws(RenderError) {
        let width = Int(item.frame.width.rounded())
        let height = Int(item.frame.height.rounded())
        guard width > 0, height > 0 else { return }
        let key = CardRasterCache.Key(card: card, width: width, height: height)
        if item.scale == 1, item.rotation == 0, item.alpha >= 1, item.tint == nil, let textColor {
            let x = Int32(item.frame.x.rounded())
            let y = Int32(item.frame.y.rounded())
            let background = try sharedBackground(card, width: width, height: height, rasterizer: rasterizer)
            pixman_image_composite32(
                PIXMAN_OP_OVER, background.handle, nil, image.handle, 0, 0, 0, 0, x, y, Int32(width), Int32(height))
            try drawTextLayer(
                card, width: width, height: height, x: x, y: y, color: textColor, rasterizer: rasterizer, onto: image)
            return
        }
        let raster = try cache.image(for: key) { () throws(RenderError) in
            CardImage(image: try rasterizer.rasterize(card, width: width, height: height))
        }
        if let whole = raster.image { try CardCompositor.draw(whole, item, onto: image, within: rows) }
    }

    private func sharedBackground(_ card: Card, width: Int, height: Int, rasterizer: CardRasterizer) throws(RenderError)
        -> PixmanImage
    {
        let key = BackgroundKey(width: width, height: height, color: card.color, accent: card.accent)
        if let background = backgrounds[key] { return background }
        // A deck with many distinct colors or sizes should not grow this without bound.
        if backgrounds.count >= 32 { backgrounds.removeAll() }
        let background = try rasterizer.background(card, width: width, height: height)
        backgrounds[key] = background
        return background
    }

    // MARK: Cards over the uniform background

    /// Decides, per item, whether its card is drawn straight over the uniform background: drawn
    /// as it is, and overlapping nothing drawn before it. Then card color OVER background is a
    /// constant for every pixel outside the anti-aliased corner rows, written without blending.
    private func planInteriors(_ list: DisplayList, deck: Deck) {
        interiors.removeAll(keepingCapacity: true)
        guard let style else { return }
        let background = list.background
        for (index, item) in list.items.enumerated() {
            interiors.append(nil)
            guard case .card(_, let section, let itemIndex) = item.content, item.scale == 1, item.rotation == 0,
                item.alpha >= 1, item.tint == nil
            else { continue }
            let frame = item.frame
            let overlaps = list.items[..<index].contains { earlier in
                earlier.frame.x < frame.maxX && frame.x < earlier.frame.maxX && earlier.frame.y < frame.maxY
                    && frame.y < earlier.frame.maxY
            }
            if overlaps { continue }
            interiors[index] = CardInterior(
                card: deck.sections[section].cards[itemIndex], frame: frame, style: style, background: background)
        }
    }

    /// Paints the background, leaving out the card interiors that will be written over it.
    private func fillBackground(_ color: Color, of image: PixmanImage) {
        var background = pixman_color_t(color)
        uncovered.removeAllHoles()
        for interior in interiors {
            interior?.forEachConstantBox { box, _ in uncovered.addHole(box) }
        }
        uncovered.compute(width: Int32(image.width), height: Int32(image.height))
        // One box per call: given several, pixman builds a region from them, which allocates on
        // every frame; a single box is filled without.
        for var box in uncovered.result {
            _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, image.handle, &background, 1, &box)
        }
    }

    private func drawCardOverUniformBackground(
        _ interior: CardInterior, _ item: DisplayList.Item, rasterizer: CardRasterizer, onto image: PixmanImage
    ) throws(RenderError) {
        guard let textColor else { return }
        // The constant parts (interior rows, middle of the corner rows), written without blending.
        // The middle of the corner rows is the plain fill as well: only the corners and the
        // accent bar's ends need blending. For a 1840x160 card with 16 px corners that is about
        // 1,100 blended pixels instead of 59,000 (cards-1080p-slow: 976 M -> 590 M instructions).
        interior.forEachConstantBox { box, pixel in
            // pixman_image_fill_boxes does not clip to the image: a card partly off screen would
            // be written out of bounds.
            var box = pixman_box32_t(
                x1: max(box.x1, 0), y1: max(box.y1, 0), x2: min(box.x2, Int32(image.width)),
                y2: min(box.y2, Int32(image.height)))
            guard box.x2 > box.x1, box.y2 > box.y1 else { return }
            var color = pixman_color_t(
                red: UInt16((pixel >> 16) & 0xFF) * 257, green: UInt16((pixel >> 8) & 0xFF) * 257,
                blue: UInt16(pixel & 0xFF) * 257, alpha: 0xFFFF)
            pixman_image_fill_boxes(PIXMAN_OP_SRC, image.handle, &color, 1, &box)
        }
        // The anti-aliased corners, blended from the shared background image.
        let background = try sharedBackground(
            interior.card, width: interior.width, height: interior.height, rasterizer: rasterizer)
        let (x, y) = (interior.x, interior.y)
        interior.forEachBlendedBox { column, row, columns, rows in
            guard columns > 0 else { return }
            pixman_image_composite32(
                PIXMAN_OP_OVER, background.handle, nil, image.handle, Int32(column), Int32(row), 0, 0,
                x + Int32(column), y + Int32(row), Int32(columns), Int32(rows))
        }
        try drawTextLayer(
            interior.card, width: interior.width, height: interior.height, x: x, y: y, color: textColor,
            rasterizer: rasterizer, onto: image)
    }

    /// The card's cached text layer (made on first use) through the text color, at (x, y).
    private func drawTextLayer(
        _ card: Card, width: Int, height: Int, x: Int32, y: Int32, color: PixmanImage, rasterizer: CardRasterizer,
        onto image: PixmanImage
    ) throws(RenderError) {
        let key = CardRasterCache.Key(card: card, width: width, height: height)
        // A card's first appearance is drawn glyph by glyph; a layer is made when it comes back
        // (the next frame, mostly), so a fast scroll, which shows most cards in one frame only,
        // neither makes nor evicts layers (cards-1080p: 1.45 G -> 1.19 G instructions, p50 0.99 -> 0.58 ms).
        let text: CardImage
        if let cached = textLayers.cachedImage(for: key) {
            text = cached
        } else if sightedOnce.insert(key).inserted || layersMadeThisFrame >= Self.layersPerFrame {
            if sightedOnce.count > Self.sightedOnceLimit {
                sightedOnce.removeAll(keepingCapacity: true)
                sightedOnce.insert(key)
            }
            rasterizer.drawText(card, width: width, height: height, onto: image, x: x, y: y)
            return
        } else {
            layersMadeThisFrame += 1
            text = try textLayers.image(for: key) { () throws(RenderError) in
                try rasterizer.textLayer(card, width: width, height: height)
            }
        }
        for part in text.parts {
            // A colour glyph is its own source; a coverage layer is the mask of the text color.
            let (source, mask) = part.isColor ? (part.image.handle, nil) : (color.handle, part.image.handle)
            pixman_image_composite32(
                PIXMAN_OP_OVER, source, mask, image.handle, 0, 0, 0, 0, x + Int32(part.x), y + Int32(part.y),
                Int32(part.image.width), Int32(part.image.height))
        }
    }

    private func targetIndex(for buffer: PixelBuffer) throws(RenderError) -> Int {
        if let index = targets.firstIndex(where: { $0.buffer === buffer }) { return index }
        let image = try PixmanImage(
            wrapping: UnsafeMutableRawPointer(buffer.baseAddress), format: PIXMAN_x8r8g8b8, width: buffer.width,
            height: buffer.height, stride: buffer.stride * 4)
        // A few at most: a backend that replaced its buffers (a new size) lets go of the old ones.
        if targets.count == 4 { targets.removeFirst() }
        targets.append(Target(buffer: buffer, image: image))
        return targets.count - 1
    }
}
