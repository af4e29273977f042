import CPixman
import MarqueeCore

/// Draws cards: the rounded, anti-aliased fill (with the accent bar) and the title and body text,
/// either as one premultiplied ARGB image, or as a shared background plus a text layer (the
/// renderer's fast path for cards drawn as they are).
struct CardRasterizer {
    let style: Style
    let fonts: FontSet
    let textColor: PixmanImage

    /// The whole card in one image: background, then text (for cards drawn transformed, faded
    /// or tinted, which are composited from this one image).
    func rasterize(_ card: Card, width: Int, height: Int) throws(RenderError) -> PixmanImage {
        let image = try background(card, width: width, height: height)
        for text in layout(card, width: width, height: height) {
            TextPainter.draw(
                text.line, face: text.face, color: textColor, onto: image, x: text.x, baseline: text.baseline)
        }
        return image
    }

    /// The rounded background with its accent bar, which every card of the same size, fill and
    /// accent shares.
    func background(_ card: Card, width: Int, height: Int) throws(RenderError) -> PixmanImage {
        // Every pixel is painted by fillShape, so the memory need not be zeroed first.
        let image = try PixmanImage(
            format: PIXMAN_a8r8g8b8, width: max(1, width), height: max(1, height), zeroed: false)
        fillShape(image, card: card)
        return image
    }

    /// The card's text straight onto `image` with the text color, the card's top-left corner at
    /// (x, y): for a card drawn once (a fast scroll), where making and keeping an 8-bit layer
    /// would cost more than it saves.
    func drawText(_ card: Card, width: Int, height: Int, onto image: PixmanImage, x: Int32, y: Int32) {
        for text in layout(card, width: width, height: height) {
            TextPainter.draw(
                text.line, face: text.face, color: textColor, onto: image, x: Double(x) + text.x,
                baseline: Double(y) + text.baseline)
        }
    }

    /// The card's text as 8-bit coverage, one image per line cut to the pixels its glyphs cover;
    /// composited through the text color. Colour glyphs (emoji) follow as parts of their own
    /// (`isColor`): the glyph cache's image itself, composited OVER as it is.
    func textLayer(_ card: Card, width: Int, height: Int) throws(RenderError) -> CardImage {
        // One layer per line, cut to the line's ink within the card: compositing a layer costs
        // for its whole area, and one box around all lines was nearly twice their ink (a short
        // title above long body lines).
        var parts: [CardImage.Part] = []
        var colorParts: [CardImage.Part] = []
        for text in layout(card, width: width, height: height) {
            if text.face.drawsColor {
                for glyph in TextPainter.colorGlyphs(text.line, face: text.face, x: text.x, baseline: text.baseline) {
                    colorParts.append(CardImage.Part(image: glyph.image, x: glyph.x, y: glyph.y, isColor: true))
                }
            }
            guard
                let ink = TextPainter.inkBounds(text.line, face: text.face, x: text.x, baseline: text.baseline)?
                    .clamped(width: width, height: height)
            else { continue }
            let layer = try PixmanImage(format: PIXMAN_a8, width: ink.x1 - ink.x0, height: ink.y1 - ink.y0)
            TextPainter.draw(
                text.line, face: text.face, color: nil, onto: layer, x: text.x - Double(ink.x0),
                baseline: text.baseline - Double(ink.y0))
            parts.append(CardImage.Part(image: layer, x: ink.x0, y: ink.y0))
        }
        // After all coverage layers: the glyph-by-glyph path draws them in line order, and they
        // do not overlap the text beside them, so the order between the two kinds does not show.
        return CardImage(parts: parts + colorParts)
    }

    /// The laid-out lines of a card's title and body, with where each goes.
    private func layout(_ card: Card, width: Int, height: Int) -> [(
        line: TextLine, face: FontFace, x: Double, baseline: Double
    )] {
        let metrics = CardMetrics(style: style, width: Double(width), height: Double(height))
        var texts: [(line: TextLine, face: FontFace, x: Double, baseline: Double)] = []
        // A body with no room for a line is not dropped silently: the title ends with "…".
        let bodyHidden = !card.body.isEmpty && metrics.bodyLineCount == 0
        let direction = card.direction ?? style.direction
        func x(_ line: TextLine) -> Double {
            metrics.padding + line.offset(in: metrics.textWidth, align: style.align)
        }
        if !card.title.isEmpty {
            for line in TextLayout.lines(
                card.title, face: fonts.title, maximumWidth: metrics.textWidth, maximumLines: 1,
                moreFollows: bodyHidden, direction: direction)
            {
                texts.append((line, fonts.title, x(line), metrics.titleBaseline))
            }
        }
        if !card.body.isEmpty {
            let lines = TextLayout.lines(
                card.body, face: fonts.body, maximumWidth: metrics.textWidth, maximumLines: metrics.bodyLineCount,
                direction: direction)
            for (number, line) in lines.enumerated() {
                texts.append(
                    (
                        line, fonts.body, x(line),
                        metrics.firstBodyBaseline + Double(number) * metrics.bodyLineHeight
                    ))
            }
        }
        return texts
    }

    /// Fills the rounded rectangle. Coverage at the corners comes from each pixel center's
    /// distance to the corner circle (a one-pixel ramp), which anti-aliases the arc without
    /// supersampling. Only corner pixels are computed one by one; every other run of a row is a
    /// single vectorized fill (this loop was half of a frame's time when done pixel by pixel).
    private func fillShape(_ image: PixmanImage, card: Card) {
        guard let pixels = image.pixels?.assumingMemoryBound(to: UInt32.self) else { return }
        let width = image.width
        let height = image.height
        let rowPixels = image.stride / 4
        let fill = card.color ?? style.cardColor
        let opacity = style.cardAlpha * Double(fill.alpha) / 255
        let fillPixel = Self.premultiplied(fill, opacity: opacity)
        let accentPixel = card.accent.map { Self.premultiplied($0, opacity: opacity * Double($0.alpha) / 255) }
        let accentWidth = accentPixel == nil ? 0 : min(width, Int(style.accentWidth.rounded()))
        let radius = min(style.cornerRadius, Double(min(width, height)) / 2)
        let cornerSpan = min(Int(radius.rounded(.up)), width / 2)
        /// Fills `[from, to)` of a row with the accent and the fill as they fall.
        func span(_ row: UnsafeMutablePointer<UInt32>, _ from: Int, _ to: Int) {
            guard from < to else { return }
            let accentEnd = min(max(accentWidth, from), to)
            if accentEnd > from { (row + from).update(repeating: accentPixel!, count: accentEnd - from) }
            if to > accentEnd { (row + accentEnd).update(repeating: fillPixel, count: to - accentEnd) }
        }
        for y in 0..<height {
            let row = pixels + y * rowPixels
            let inCornerRows = y < cornerSpan || y >= height - cornerSpan
            guard inCornerRows else {
                span(row, 0, width)
                continue
            }
            let centerY = Double(y) + 0.5
            let circleY = y < cornerSpan ? radius : Double(height) - radius
            let dy = max(0, y < cornerSpan ? circleY - centerY : centerY - circleY)
            func corner(_ x: Int) {
                let base = x < accentWidth ? accentPixel! : fillPixel
                let circleX = x < cornerSpan ? radius : Double(width) - radius
                let dx = max(0, x < cornerSpan ? circleX - (Double(x) + 0.5) : Double(x) + 0.5 - circleX)
                let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
                row[x] = Self.scale(base, by: coverage)
            }
            for x in 0..<cornerSpan { corner(x) }
            for x in (width - cornerSpan)..<width { corner(x) }
            span(row, cornerSpan, width - cornerSpan)
        }
    }

    static func premultiplied(_ color: Color, opacity: Double) -> UInt32 {
        let alpha = min(max(opacity, 0), 1)
        func channel(_ value: UInt8) -> UInt32 { UInt32((Double(value) * alpha).rounded()) }
        return UInt32((alpha * 255).rounded()) << 24 | channel(color.red) << 16 | channel(color.green) << 8
            | channel(color.blue)
    }

    static func scale(_ pixel: UInt32, by coverage: Double) -> UInt32 {
        if coverage >= 1 { return pixel }
        if coverage <= 0 { return 0 }
        var result: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let channel = Double((pixel >> UInt32(shift)) & 0xFF)
            result |= UInt32((channel * coverage).rounded()) << UInt32(shift)
        }
        return result
    }
}
