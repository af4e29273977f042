import CPixman
import MarqueeCore

/// Draws resolved cards (`CardContent`): the rounded, anti-aliased surface (fill and boxes) and
/// the static text, either as one premultiplied ARGB image, or as a shared surface plus a text
/// layer (the renderer's fast path for cards drawn as they are).
struct CardRasterizer {
    let colors: SolidColors
    let strips: MarqueeStrips

    /// The whole card in one image: surface, then text (for cards drawn transformed, faded or
    /// tinted, which are composited from this one image). Time-dependent elements are drawn at
    /// rest: a marquee at its start, a clock as it reads when the image is made; images by
    /// `pictures` (each element and the raster), as the frame shows them, under the text.
    func rasterize(
        _ content: CardContent, clockTime: Double, pictures: (PlacedImage, PixmanImage) -> Void
    ) throws(RenderError) -> PixmanImage {
        let image = try surface(content.surface)
        for placed in content.images { pictures(placed, image) }
        drawText(content, onto: image, x: 0, y: 0)
        for marquee in content.marquees {
            try drawMarquee(marquee, offset: 0, onto: image, x: 0, y: 0)
        }
        for clock in content.clocks {
            drawClock(clock, time: clockTime, onto: image, x: 0, y: 0)
        }
        return image
    }

    /// The rounded surface with its boxes, the first layer of a whole raster.
    func surface(_ surface: CardSurface) throws(RenderError) -> PixmanImage {
        // Every pixel is painted by SurfacePainter, so the memory need not be zeroed first.
        let image = try PixmanImage(
            format: PIXMAN_a8r8g8b8, width: surface.width, height: surface.height, zeroed: false)
        SurfacePainter.paint(surface, into: image)
        return image
    }

    /// The card's static text straight onto `image`, the card's top-left corner at (x, y): for a
    /// card drawn once (a fast scroll), where making and keeping an 8-bit layer would cost more
    /// than it saves.
    /// `under` is the card's plain fill as written in the frame (a card over the uniform
    /// background), whose blends with each coverage are worked out once (`GlyphBlender`).
    func drawText(_ content: CardContent, onto image: PixmanImage, x: Int32, y: Int32, under: UInt32? = nil) {
        let blends = under != nil && GlyphBlender.canDraw(onto: image)
        // Drawn into a window of rows (a band, a damaged band): the lines outside it are skipped.
        // The first window that draws the card draws every line, measuring the rows each can
        // touch as it goes (its glyphs outside the window are not composited), for the next ones.
        let rows = image.clipRows == nil ? nil : content.textRows
        let measures = image.clipRows != nil && rows == nil
        var measured: [Range<Int>] = []
        if measures { measured.reserveCapacity(content.texts.count) }
        defer { if measures { content.textRows = measured } }
        // A card's lines mostly share one or two colours: the solid source and the blend table
        // are looked up when the colour changes, not for every line in every band.
        var known: (color: Color, image: PixmanImage?, table: GlyphBlender.OverTable?)?
        for (index, text) in content.texts.enumerated() {
            if let line = rows?[index], !image.reaches(y: y + Int32(line.lowerBound), height: Int32(line.count)) {
                continue
            }
            if known?.color != text.color {
                known = (
                    text.color, colors.image(text.color),
                    blends ? under.flatMap { colors.overTable(text.color, fill: $0) } : nil
                )
            }
            guard let color = known?.image, text.clip == nil else {
                if measures {
                    let line = TextPainter.rows(text.line, face: text.face, baseline: text.baseline)
                    measured.append(line)
                    // Measured, its layer is made only if it reaches this window: departures-1080p
                    // made the layers of every cut element in a card's first band (about a third
                    // of its band render's instructions, with those made again in later bands).
                    guard image.reaches(y: y + Int32(line.lowerBound), height: Int32(line.count)) else { continue }
                }
                guard let color = colors.image(text.color), let clip = text.clip else { continue }
                // Cut to the element's columns: through a small layer of its own.
                guard
                    let part = try? layer(
                        text, within: clip, width: content.surface.width, height: content.surface.height)
                else { continue }
                pixman_image_composite32(
                    PIXMAN_OP_OVER, color.handle, part.image.handle, image.handle, 0, 0, 0, 0, x + Int32(part.x),
                    y + Int32(part.y), Int32(part.image.width), Int32(part.image.height))
                continue
            }
            let line = TextPainter.draw(
                text.line, face: text.face, color: color, onto: image, x: Double(x) + text.x,
                baseline: Double(y) + text.baseline, table: known?.table)
            // Made relative to the card, a row wider each side: the baseline is rounded in frame
            // rows, which may round a half the other way at another position of the card.
            if measures {
                measured.append(line.isEmpty ? line : line.lowerBound - Int(y) - 1..<line.upperBound - Int(y) + 1)
            }
        }
    }

    /// The card's static text as 8-bit coverage, one image per line cut to the pixels its glyphs
    /// cover, each composited through its colour. Colour glyphs (emoji) follow as parts of their
    /// own (`isColor`): the glyph cache's image itself, composited OVER as it is.
    func textLayer(_ content: CardContent) throws(RenderError) -> CardImage {
        // One layer per line, cut to the line's ink within the card: compositing a layer costs
        // for its whole area, and one box around all lines was nearly twice their ink (a short
        // title above long body lines).
        var parts: [CardImage.Part] = []
        var colorParts: [CardImage.Part] = []
        let width = content.surface.width
        let height = content.surface.height
        for text in content.texts {
            if text.face.drawsColor {
                for glyph in TextPainter.colorGlyphs(text.line, face: text.face, x: text.x, baseline: text.baseline)
                where text.clip.map({ glyph.x >= $0.lowerBound && glyph.x + glyph.image.width <= $0.upperBound })
                    ?? true
                {
                    colorParts.append(CardImage.Part(image: glyph.image, x: glyph.x, y: glyph.y, isColor: true))
                }
            }
            guard var part = try layer(text, within: text.clip ?? 0..<width, width: width, height: height) else {
                continue
            }
            part.color = colors.image(text.color)
            part.textColor = text.color
            parts.append(part)
        }
        // After all coverage layers: the glyph-by-glyph path draws them in line order, and they
        // do not overlap the text beside them, so the order between the two kinds does not show.
        return CardImage(parts: parts + colorParts)
    }

    /// One line's coverage, cut to its ink within `columns` and the card's height.
    private func layer(_ text: PlacedText, within columns: Range<Int>, width: Int, height: Int) throws(RenderError)
        -> CardImage.Part?
    {
        guard
            var ink = TextPainter.inkBounds(text.line, face: text.face, x: text.x, baseline: text.baseline)?
                .clamped(width: width, height: height)
        else { return nil }
        ink.x0 = max(ink.x0, columns.lowerBound)
        ink.x1 = min(ink.x1, columns.upperBound)
        guard ink.x1 > ink.x0 else { return nil }
        let layer = try PixmanImage(format: PIXMAN_a8, width: ink.x1 - ink.x0, height: ink.y1 - ink.y0)
        TextPainter.addCoverage(
            text.line, face: text.face, onto: layer, x: text.x - Double(ink.x0),
            baseline: text.baseline - Double(ink.y0))
        return CardImage.Part(image: layer, x: ink.x0, y: ink.y0)
    }

    // MARK: Elements that change with time

    /// The marquee's line scrolled by `offset` pixels, cut to its element's box. The line's
    /// coverage is made once (`MarqueeStrip`) and a window of it is composited each frame.
    func drawMarquee(_ marquee: MarqueeText, offset: Int, onto image: PixmanImage, x: Int32, y: Int32)
        throws(RenderError)
    {
        guard let color = colors.image(marquee.color) else { return }
        let strip = try strips.strip(marquee)
        let left = Int32(marquee.box.x)
        // The strip's columns [offset, offset + box width) land at the box's left edge.
        let sourceX = Int32(offset) - strip.originX
        var from = max(0, -sourceX)
        var to = min(Int32(marquee.box.width), Int32(strip.image.width) - sourceX)
        from = max(from, 0)
        to = max(to, from)
        guard to > from else { return }
        pixman_image_composite32(
            PIXMAN_OP_OVER, color.handle, strip.image.handle, image.handle, 0, 0, sourceX + from, 0,
            x + left + from, y + Int32(strip.top), to - from, Int32(strip.image.height))
    }

    /// The clock's text at `time` (seconds since the epoch), laid out in its box.
    func drawClock(_ clock: ClockText, time: Double, onto image: PixmanImage, x: Int32, y: Int32) {
        guard let color = colors.image(clock.color) else { return }
        let text = ClockFormat.text(clock.format, at: time)
        for line in TextLayout.lines(
            text, face: clock.face, maximumWidth: Double(max(1, clock.box.width)), maximumLines: 1,
            direction: clock.direction)
        {
            TextPainter.draw(
                line, face: clock.face, color: color, onto: image,
                x: Double(x) + Double(clock.box.x) + line.offset(in: Double(clock.box.width), align: clock.align),
                baseline: Double(y) + clock.baseline)
        }
    }

    /// An image's placeholder: its colour in the element's box, corners rounded by its radius.
    func drawPlaceholder(_ placed: PlacedImage, onto image: PixmanImage, x: Int32, y: Int32, opacity: Double = 1) {
        guard placed.placeholder.alpha > 0, opacity > 0 else { return }
        let box = SurfaceBox(
            x0: 0, y0: 0, x1: placed.box.width, y1: placed.box.height, radius: placed.radius,
            color: placed.placeholder)
        // At full opacity (all but a fade-in's frames) the shape is made once per size, radius
        // and colour: a scroll shows the same placeholders frame after frame.
        let made = opacity >= 1 ? colors.placeholder(box) : try? SurfacePainter.roundedBox(box, opacity: opacity)
        guard let shape = made else { return }
        pixman_image_composite32(
            PIXMAN_OP_OVER, shape.handle, nil, image.handle, 0, 0, 0, 0, x + Int32(placed.box.x),
            y + Int32(placed.box.y), Int32(shape.width), Int32(shape.height))
    }
}

/// A marquee line's coverage, made once per line and face.
final class MarqueeStrip {
    let image: PixmanImage
    /// The strip's column 0 in the line's coordinates (ink may start left of the pen).
    let originX: Int32
    /// The strip's row 0 relative to the card's top.
    let top: Int

    init(image: PixmanImage, originX: Int32, top: Int) {
        self.image = image
        self.originX = originX
        self.top = top
    }
}

/// Marquee strips by line (the same "calling at" text on many cards shares one), bounded.
final class MarqueeStrips {
    private struct Key: Hashable {
        var face: ObjectIdentifier
        var glyphs: [PlacedGlyph]
        var baseline: Double
    }
    private var strips: [Key: MarqueeStrip] = [:]
    /// Kept under 256 strips and 16 MB (a strip can be 16,384 px wide): past either, all go.
    private var bytes = 0
    private static let budgetBytes = 16 << 20

    func strip(_ marquee: MarqueeText) throws(RenderError) -> MarqueeStrip {
        let key = Key(face: ObjectIdentifier(marquee.face), glyphs: marquee.line.glyphs, baseline: marquee.baseline)
        if let strip = strips[key] { return strip }
        if strips.count >= 256 || bytes > Self.budgetBytes {
            strips.removeAll()
            bytes = 0
        }
        let strip: MarqueeStrip
        if let ink = TextPainter.inkBounds(marquee.line, face: marquee.face, x: 0, baseline: marquee.baseline) {
            let layer = try PixmanImage(format: PIXMAN_a8, width: ink.x1 - ink.x0, height: ink.y1 - ink.y0)
            TextPainter.addCoverage(
                marquee.line, face: marquee.face, onto: layer, x: -Double(ink.x0),
                baseline: marquee.baseline - Double(ink.y0))
            strip = MarqueeStrip(image: layer, originX: Int32(ink.x0), top: ink.y0)
        } else {
            strip = MarqueeStrip(image: try PixmanImage(format: PIXMAN_a8, width: 1, height: 1), originX: 0, top: 0)
        }
        strips[key] = strip
        bytes += strip.image.byteCount
        return strip
    }

    func removeAll() {
        strips.removeAll()
        bytes = 0
    }
}

/// Solid pixman sources by colour, made once (a text layer is composited through its colour),
/// and image placeholders.
final class SolidColors {
    private var images: [Color: PixmanImage] = [:]

    func image(_ color: Color) -> PixmanImage? {
        if let image = images[color] { return image }
        if images.count >= 256 { images.removeAll() }
        let image = try? PixmanImage(solid: pixman_color_t(color))
        images[color] = image
        return image
    }

    func removeAll() {
        images.removeAll()
        placeholders.removeAll()
        overTables.removeAll()
    }

    /// Glyph blends of `color` over a card's fill (`GlyphBlender`): a few (text colours times
    /// card fills), found by a scan. Up to 64 pairs (3 KB each), the oldest dropped first: a
    /// board whose cards take their colours from their values (a status per row) can show more
    /// than 16 pairs in one frame, and each table missed is made again for every line drawn.
    private var overTables: [GlyphBlender.OverTable] = []
    private static let overTableLimit = 64

    func overTable(_ color: Color, fill: UInt32) -> GlyphBlender.OverTable? {
        let pixel = SolidFill.pixel(pixman_color_t(color))
        if let known = overTables.first(where: { $0.color == pixel && $0.fill == fill }) {
            known.frame = frame
            return known
        }
        guard let made = GlyphBlender.OverTable(color: pixel, fill: fill) else { return nil }
        made.frame = frame
        if overTables.count >= Self.overTableLimit { overTables.removeFirst() }
        overTables.append(made)
        return made
    }

    /// The number of the frame being drawn (`Renderer.startDrawing`), given to the tables asked for.
    var frame = 0

    /// Image placeholders at full opacity, by shape and colour (bounded like the colours).
    private var placeholders: [SurfaceBox: PixmanImage] = [:]

    func placeholder(_ box: SurfaceBox) -> PixmanImage? {
        if let image = placeholders[box] { return image }
        // A huge placeholder is drawn each time rather than kept (64 of them could be gigabytes).
        if (box.x1 - box.x0) * (box.y1 - box.y0) > 1 << 18 { return try? SurfacePainter.roundedBox(box, opacity: 1) }
        if placeholders.count >= 64 { placeholders.removeAll() }
        let image = try? SurfacePainter.roundedBox(box, opacity: 1)
        placeholders[box] = image
        return image
    }
}
