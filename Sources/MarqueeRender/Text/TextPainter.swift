import CPixman

/// Composites laid-out text onto a pixman image: each glyph's coverage mask straight from the
/// glyph cache, through a solid source of the text color (`pixman_image_composite32`, OVER), or,
/// with no color, as coverage added onto an 8-bit layer (which is later composited with the color).
/// Colour glyphs (emoji) are composited OVER in their own colours; an 8-bit layer cannot hold
/// them, so they are left out of it and listed by `colorGlyphs` to be drawn beside it.
enum TextPainter {
    /// The pixels a line's glyphs cover, drawn at `originX` and `baseline` as `draw` draws them.
    struct Ink {
        var x0: Int
        var y0: Int
        var x1: Int
        var y1: Int

        /// Within 0..<width and 0..<height; nil when nothing is left.
        func clamped(width: Int, height: Int) -> Ink? {
            let ink = Ink(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
            return ink.x1 > ink.x0 && ink.y1 > ink.y0 ? ink : nil
        }
    }

    /// Eight bytes added lane by lane, each sum held at 255: the low seven bits of each lane added
    /// without carrying into the next, the top bit added after, and the lanes whose sum carried
    /// out of the byte set to 255.
    @inline(__always)
    private static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let top: UInt64 = 0x8080_8080_8080_8080
        let sum = ((a & low) &+ (b & low)) ^ ((a ^ b) & top)
        let carried = ((a & b) | ((a | b) & ~sum)) & top
        return sum | ((carried >> 7) &* 0xFF)
    }

    /// The rows (relative to `baseline`'s frame) that `draw` can touch for the line, colour glyphs
    /// included; empty when it draws nothing.
    static func rows(_ line: TextLine, face: FontFace, baseline: Double) -> Range<Int> {
        var top = Int.max
        var bottom = Int.min
        forEachGlyph(line, face: face, x: 0, baseline: baseline) { glyph, image, _, y in
            top = min(top, y)
            bottom = max(bottom, y + max(image.height, glyph.color?.height ?? 0))
        }
        return top < bottom ? top..<bottom : 0..<0
    }

    /// The box around the glyphs `draw` puts on an 8-bit layer (colour glyphs are not on it: they
    /// have no coverage mask). Read from the masks as plain values, as `addCoverage` draws them.
    static func inkBounds(_ line: TextLine, face: FontFace, x originX: Double, baseline: Double) -> Ink? {
        var ink: Ink?
        let baselineY = Int(roundingToNearest: baseline)
        for placed in line.glyphs {
            let mask = face.face(numbered: placed.font).mask(placed.index)
            guard mask.coverage != nil else { continue }
            let x = column(of: placed, x: originX, bearingX: mask.bearingX)
            let y = row(of: placed, baselineY: baselineY, bearingY: mask.bearingY)
            let box = Ink(x0: x, y0: y, x1: x + mask.width, y1: y + mask.height)
            ink =
                ink.map {
                    Ink(x0: min($0.x0, box.x0), y0: min($0.y0, box.y0), x1: max($0.x1, box.x1), y1: max($0.y1, box.y1))
                } ?? box
        }
        return ink
    }

    /// The box around every pixel `draw` may write for the line: its coverage glyphs
    /// (`inkBounds`) and, in a face with colour glyphs, those too.
    static func drawnBox(_ line: TextLine, face: FontFace, x originX: Double, baseline: Double) -> Ink? {
        guard face.drawsColor else { return inkBounds(line, face: face, x: originX, baseline: baseline) }
        var ink: Ink?
        forEachGlyph(line, face: face, x: originX, baseline: baseline) { glyph, image, x, y in
            let box = Ink(
                x0: x, y0: y, x1: x + max(image.width, glyph.color?.width ?? 0),
                y1: y + max(image.height, glyph.color?.height ?? 0))
            ink =
                ink.map {
                    Ink(x0: min($0.x0, box.x0), y0: min($0.y0, box.y0), x1: max($0.x1, box.x1), y1: max($0.y1, box.y1))
                } ?? box
        }
        return ink
    }

    /// `draw` with no colour: the line's coverage added onto the 8-bit `layer`, saturating, as
    /// pixman's ADD of a8 onto a8 does (colour glyphs are left to the caller). Read from the masks
    /// as plain values and added in a loop of its own: through pixman, each glyph was a
    /// composite call and a retained glyph and image, and the two text layers a frame may make
    /// took about 4 % of a band frame's time on cards-1080p scrolled ten times slower
    /// (`--frames 1200`, perf), most of it those; departures-1080p's marquee strips and clipped
    /// elements are made here too.
    static func addCoverage(
        _ line: TextLine, face: FontFace, onto layer: PixmanImage, x originX: Double, baseline: Double
    ) {
        guard layer.format == PIXMAN_a8, layer.clipRows == nil, let pixels = layer.pixels else {
            draw(line, face: face, color: nil, onto: layer, x: originX, baseline: baseline)
            return
        }
        let target = pixels.assumingMemoryBound(to: UInt8.self)
        let (width, height, stride) = (layer.width, layer.height, layer.stride)
        let baselineY = Int(roundingToNearest: baseline)
        for placed in line.glyphs {
            let mask = face.face(numbered: placed.font).mask(placed.index)
            guard let coverage = mask.coverage else { continue }
            let x = column(of: placed, x: originX, bearingX: mask.bearingX)
            let y = row(of: placed, baselineY: baselineY, bearingY: mask.bearingY)
            let (left, right) = (max(x, 0), min(x + mask.width, width))
            let (top, bottom) = (max(y, 0), min(y + mask.height, height))
            guard right > left, bottom > top else { continue }
            for row in top..<bottom {
                let out = target + row * stride
                let added = coverage + (row - y) * mask.stride - x
                var column = left
                while column &+ 8 <= right {
                    let sum = saturatingSum(
                        UnsafeRawPointer(out + column).loadUnaligned(as: UInt64.self),
                        UnsafeRawPointer(added + column).loadUnaligned(as: UInt64.self))
                    UnsafeMutableRawPointer(out + column).storeBytes(of: sum, as: UInt64.self)
                    column &+= 8
                }
                while column < right {
                    out[column] = UInt8(truncatingIfNeeded: min(UInt16(out[column]) &+ UInt16(added[column]), 255))
                    column &+= 1
                }
            }
        }
    }

    /// The line's colour glyphs, each with where its image's top-left corner goes.
    static func colorGlyphs(_ line: TextLine, face: FontFace, x originX: Double, baseline: Double) -> [(
        image: PixmanImage, x: Int, y: Int
    )] {
        var found: [(image: PixmanImage, x: Int, y: Int)] = []
        forEachGlyph(line, face: face, x: originX, baseline: baseline) { glyph, image, x, y in
            if glyph.color != nil { found.append((image, x, y)) }
        }
        return found
    }

    /// Draws the line and returns the rows it can touch, as `rows` measures them (the band
    /// renderer keeps them from a card's first band, so that its later bands skip the lines
    /// outside them without a pass of their own over the glyphs).
    /// With `table` (the colour's blends over the fill under the text; the target one that
    /// `GlyphBlender.canDraw` onto), the glyphs are blended by `GlyphBlender`.
    @discardableResult
    static func draw(
        _ line: TextLine, face: FontFace, color: PixmanImage?, onto target: PixmanImage, x originX: Double,
        baseline: Double, table: GlyphBlender.OverTable? = nil
    ) -> Range<Int> {
        if let color, !face.drawsColor {
            return drawRun(line, face: face, color: color, onto: target, x: originX, baseline: baseline, table: table)
        }
        var top = Int.max
        var bottom = Int.min
        forEachGlyph(line, face: face, x: originX, baseline: baseline) { glyph, image, x, y in
            let height = max(image.height, glyph.color?.height ?? 0)
            top = min(top, y)
            bottom = max(bottom, y + height)
            guard target.reaches(y: Int32(y), height: Int32(height)) else { return }
            if let pixels = glyph.color {
                // In its own colours; onto an 8-bit layer (no color) it is drawn by the caller.
                guard color != nil else { return }
                pixman_image_composite32(
                    PIXMAN_OP_OVER, pixels.handle, nil, target.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(pixels.width), Int32(pixels.height))
            } else if let color {
                pixman_image_composite32(
                    PIXMAN_OP_OVER, color.handle, image.handle, target.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(image.width), Int32(image.height))
            } else {
                // Coverage adds up (saturating) as cairo accumulates glyph masks: the same as OVER
                // except where two glyphs overlap, and pixman has a fast path for ADD of A8 onto
                // A8 but not for OVER, whose general path cost 5x more (callgrind, cards-1080p).
                pixman_image_composite32(
                    PIXMAN_OP_ADD, image.handle, nil, target.handle, 0, 0, 0, 0, Int32(x), Int32(y), Int32(image.width),
                    Int32(image.height))
            }
        }
        return top < bottom ? top..<bottom : 0..<0
    }

    /// `draw` through a colour for a line without colour glyphs: the glyphs that reach the target's
    /// clip go to pixman in one call (`pixman_composite_glyphs_no_mask`), which composites each
    /// glyph as `pixman_image_composite32` would (the same fast path, in the same order), without
    /// that call's work per glyph (the composite region, the fast path looked up): about 650
    /// instructions of a glyph's 3,500 (cards-1080p, callgrind).
    private static func drawRun(
        _ line: TextLine, face: FontFace, color: PixmanImage, onto target: PixmanImage, x originX: Double,
        baseline: Double, table: GlyphBlender.OverTable?
    ) -> Range<Int> {
        var top = Int.max
        var bottom = Int.min
        if let table, let frame = GlyphBlender.Frame(target) {
            // `forEachGlyph`'s placement, with each glyph's mask read as plain values
            // (`GlyphMask`): no glyph or image is retained and released for it.
            let baselineY = Int(roundingToNearest: baseline)
            // The line's own face's glyphs come already blended over the fill where they can
            // (glyphs borrowed from a fallback face go through the table).
            let blended = face.blendedGlyphs(through: table)
            for placed in line.glyphs {
                // (The line's own face as it is: `face(numbered:)` returns a reference, retained
                // and released for every glyph.)
                let mask =
                    placed.font == 0 ? face.mask(placed.index) : face.face(numbered: placed.font).mask(placed.index)
                guard let coverage = mask.coverage else { continue }
                // The row first: a card's first band walks all its lines (measuring their rows
                // for its later bands) and a line across a band's edge is walked in both bands;
                // a glyph outside the band's rows is only measured, its column not worked out.
                let y = row(of: placed, baselineY: baselineY, bearingY: mask.bearingY)
                top = min(top, y)
                bottom = max(bottom, y + mask.height)
                guard y < frame.bottom, y + mask.height > frame.top else { continue }
                let x = column(of: placed, x: originX, bearingX: mask.bearingX)
                if placed.font == 0, let pixels = blended?.pixels(placed.index, mask: mask, coverage: coverage) {
                    GlyphBlender.draw(
                        blended: pixels, coverage: coverage, width: mask.width, height: mask.height,
                        stride: mask.stride, x: x, y: y, onto: frame, table: table)
                    continue
                }
                GlyphBlender.draw(
                    coverage: coverage, width: mask.width, height: mask.height, stride: mask.stride, x: x, y: y,
                    onto: frame, table: table)
            }
            return top < bottom ? top..<bottom : 0..<0
        }
        let cache = face.pixmanGlyphs
        // Frozen while the run is gathered and drawn: thawing may evict glyphs, inserting not.
        pixman_glyph_cache_freeze(cache)
        defer { pixman_glyph_cache_thaw(cache) }
        face.glyphRun.removeAll(keepingCapacity: true)
        func flush() {
            guard !face.glyphRun.isEmpty else { return }
            face.glyphRun.withUnsafeBufferPointer { run in
                pixman_composite_glyphs_no_mask(
                    PIXMAN_OP_OVER, color.handle, target.handle, 0, 0, 0, 0, cache, Int32(run.count), run.baseAddress)
            }
            face.glyphRun.removeAll(keepingCapacity: true)
        }
        forEachGlyph(line, face: face, x: originX, baseline: baseline) { glyph, image, x, y in
            top = min(top, y)
            bottom = max(bottom, y + image.height)
            guard target.reaches(y: Int32(y), height: Int32(image.height)) else { return }
            // A `Glyph`'s address is its key: the face's table drops pixman's copy with the glyph
            // (`GlyphTable`), before the address can be another glyph's.
            let key = UnsafeMutableRawPointer(Unmanaged.passUnretained(glyph).toOpaque())
            var found = pixman_glyph_cache_lookup(cache, nil, key)
            if found == nil {
                found = pixman_glyph_cache_insert(cache, nil, key, 0, 0, image.handle)
                // Counted in the glyph budget (making room evicts no glyph of this frame: none
                // of this run's).
                if found != nil { face.glyphCache.chargeCopy(of: glyph) }
            }
            guard let cached = found else {
                // pixman could not copy it (out of memory): drawn on its own, in its turn.
                flush()
                pixman_image_composite32(
                    PIXMAN_OP_OVER, color.handle, image.handle, target.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(image.width), Int32(image.height))
                return
            }
            face.glyphRun.append(pixman_glyph_t(x: Int32(x), y: Int32(y), glyph: cached))
        }
        flush()
        return top < bottom ? top..<bottom : 0..<0
    }

    /// Each glyph of the line that has pixels, with its image (mask or colour pixels) and the
    /// pixel position of the image's top-left corner: one placement rule for drawing and for
    /// measuring.
    private static func forEachGlyph(
        _ line: TextLine, face: FontFace, x originX: Double, baseline: Double,
        _ body: (_ glyph: Glyph, _ image: PixmanImage, _ x: Int, _ y: Int) -> Void
    ) {
        let baselineY = Int(roundingToNearest: baseline)
        for placed in line.glyphs {
            // A glyph borrowed from a fallback font is rasterized by that font's face.
            let glyph = face.face(numbered: placed.font).glyph(placed.index)
            guard let image = glyph.image else { continue }
            let (x, y) = corner(
                of: placed, x: originX, baselineY: baselineY, bearingX: glyph.bearingX, bearingY: glyph.bearingY)
            body(glyph, image, x, y)
        }
    }

    /// The top-left pixel of a placed glyph's image: its pen position on the line rounded to whole
    /// pixels, moved by the glyph's bearings. One formula for both drawing paths, so text through
    /// a fill's table lands where pixman's path puts it.
    @inline(__always)
    private static func corner(
        of placed: PlacedGlyph, x originX: Double, baselineY: Int, bearingX: Int, bearingY: Int
    ) -> (x: Int, y: Int) {
        (column(of: placed, x: originX, bearingX: bearingX), row(of: placed, baselineY: baselineY, bearingY: bearingY))
    }

    /// `corner`'s column.
    @inline(__always)
    private static func column(of placed: PlacedGlyph, x originX: Double, bearingX: Int) -> Int {
        Int(roundingToNearest: originX + placed.x) + bearingX
    }

    /// `corner`'s row.
    @inline(__always)
    private static func row(of placed: PlacedGlyph, baselineY: Int, bearingY: Int) -> Int {
        baselineY - Int(roundingToNearest: placed.y) - bearingY
    }
}
