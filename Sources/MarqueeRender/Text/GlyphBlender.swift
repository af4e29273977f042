import CGlyph
import CPixman

/// Glyph masks through one solid colour OVER a 32-bit frame, with pixman's arithmetic (the
/// colour IN the coverage, OVER the pixel: each channel `s * m / 255 + d * (255 - a * m / 255) /
/// 255`, every product rounded as pixman divides by 255), for text drawn over a card's plain fill.
/// Most of a glyph's pixels lie over that fill, whose result for each coverage is worked out once
/// (`OverTable.overFill`): four such pixels are four table loads and one store, where pixman's
/// SSE2 loop multiplies and, for a glyph 10 to 20 pixels wide, spends much of each row on its
/// unaligned head and tail one pixel at a time (about 14 instructions a pixel, cards-1080p).
/// Pixels over anything else (another glyph's edge, a box, a picture) are blended one by one with
/// the same arithmetic, so the result is pixman's wherever the text lies.
enum GlyphBlender {
    /// Per coverage, the colour IN it, 255 minus its alpha, and the result over one fill.
    final class OverTable {
        let color: UInt32
        let fill: UInt32
        /// The renderer's number of the last frame that asked for the table
        /// (`SolidColors.overTable`): how `FontFace.blendedGlyphs` tells stale tables.
        var frame = 0
        /// `source[m]`, `inverse[m]`, `overFill[m]`: 3 x 256 pixels.
        private let storage: UnsafeMutablePointer<UInt32>

        /// Nil when `color` is not premultiplied (a channel above its alpha could carry past 255,
        /// where pixman saturates; `pixman_color_t(Color)` never makes one).
        init?(color: UInt32, fill: UInt32) {
            let alpha = color >> 24
            guard (color >> 16) & 0xFF <= alpha, (color >> 8) & 0xFF <= alpha, color & 0xFF <= alpha else {
                return nil
            }
            self.color = color
            self.fill = fill
            storage = .allocate(capacity: 3 * 256)
            for coverage in 0..<UInt32(256) {
                let source =
                    GlyphBlender.multiply(color & 0x00FF_00FF, coverage)
                    | GlyphBlender.multiply((color >> 8) & 0x00FF_00FF, coverage) << 8
                let inverse = 255 - (source >> 24)
                storage[Int(coverage)] = source
                storage[256 + Int(coverage)] = inverse
                storage[512 + Int(coverage)] = GlyphBlender.over(fill, source: source, inverse: inverse)
            }
        }

        deinit { storage.deallocate() }

        @inline(__always) var source: UnsafePointer<UInt32> { UnsafePointer(storage) }
        @inline(__always) var inverse: UnsafePointer<UInt32> { UnsafePointer(storage + 256) }
        @inline(__always) var overFill: UnsafePointer<UInt32> { UnsafePointer(storage + 512) }
    }

    /// Two channels (bytes 0 and 2 of `pair`) times `factor` / 255, rounded as pixman does.
    @inline(__always)
    static func multiply(_ pair: UInt32, _ factor: UInt32) -> UInt32 {
        let product = pair &* factor &+ 0x0080_0080
        return ((product &+ ((product >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
    }

    /// `source` OVER `pixel`, `inverse` being 255 minus the source's alpha (no channel of the sum
    /// passes 255: the source is premultiplied).
    @inline(__always)
    static func over(_ pixel: UInt32, source: UInt32, inverse: UInt32) -> UInt32 {
        (multiply(pixel & 0x00FF_00FF, inverse) | multiply((pixel >> 8) & 0x00FF_00FF, inverse) << 8) &+ source
    }

    /// Whether `draw` can write into `target`: 32-bit pixels in memory it can reach.
    static func canDraw(onto target: PixmanImage) -> Bool {
        let format = target.format
        return (format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8) && pixman_image_get_data(target.handle) != nil
    }

    /// The a8 `mask` at (`x`, `y`) of `target` (which `canDraw`), within the target and its clip
    /// rows, through `table`'s colour.
    static func draw(_ mask: PixmanImage, x: Int, y: Int, onto target: PixmanImage, table: OverTable) {
        guard let maskPixels = mask.pixels, let frame = Frame(target) else { return }
        draw(
            coverage: UnsafePointer(maskPixels.assumingMemoryBound(to: UInt8.self)), width: mask.width,
            height: mask.height, stride: mask.stride, x: x, y: y, onto: frame, table: table)
    }

    /// A target's pixels, size and clip rows as plain values: read once for a line of glyphs
    /// rather than once a glyph.
    struct Frame {
        let pixels: UnsafeMutablePointer<UInt32>
        let width: Int
        /// Pixels per row.
        let stride: Int
        /// The rows that may be drawn (the image's, within its clip rows).
        let top: Int
        let bottom: Int

        init?(_ target: PixmanImage) {
            guard let data = pixman_image_get_data(target.handle) else { return nil }
            pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
            width = target.width
            stride = target.stride / 4
            top = max(0, target.clipRows?.lowerBound ?? 0)
            bottom = min(target.height, target.clipRows?.upperBound ?? target.height)
        }
    }

    /// A coverage mask (`width` x `height` bytes, rows `stride` apart) at (`x`, `y`) of `frame`.
    @inline(__always)
    static func draw(
        coverage maskPixels: UnsafePointer<UInt8>, width maskWidth: Int, height maskHeight: Int, stride maskStride: Int,
        x: Int, y: Int, onto frame: Frame, table: OverTable
    ) {
        let top = max(y, frame.top)
        let bottom = min(y + maskHeight, frame.bottom)
        let left = max(x, 0)
        let right = min(x + maskWidth, frame.width)
        guard bottom > top, right > left else { return }
        let width = right - left
        let frameStride = frame.stride
        var out = frame.pixels + top * frameStride + left
        var coverage = maskPixels + (top - y) * maskStride + (left - x)
        for _ in top..<bottom {
            row(coverage, width: width, into: out, table: table)
            out += frameStride
            coverage += maskStride
        }
    }

    /// A glyph whose rows are already blended over the table's fill (`blended`, rows
    /// `BlendedGlyphs.span(ofWidth: maskWidth)` pixels apart), four pixels at a time
    /// (`marquee_glyph_draw_blended`): four that are all the fill take the made pixels with one
    /// store, no table loads; any others (over another glyph's edge, a box, a picture) are blended
    /// one by one with the arithmetic of `row`. A made row is the mask's width rounded up to four
    /// pixels, the fill past it: a glyph whose rounded row would leave the frame's columns is
    /// drawn by `draw(coverage:...)` instead.
    @inline(__always)
    static func draw(
        blended: UnsafePointer<UInt32>, coverage maskPixels: UnsafePointer<UInt8>, width maskWidth: Int,
        height maskHeight: Int, stride maskStride: Int, x: Int, y: Int, onto frame: Frame, table: OverTable
    ) {
        let span = BlendedGlyphs.span(ofWidth: maskWidth)
        guard x >= 0, x + span <= frame.width else {
            return draw(
                coverage: maskPixels, width: maskWidth, height: maskHeight, stride: maskStride, x: x, y: y,
                onto: frame, table: table)
        }
        let top = max(y, frame.top)
        let bottom = min(y + maskHeight, frame.bottom)
        guard bottom > top, maskWidth > 0 else { return }
        marquee_glyph_draw_blended(
            frame.pixels + top * frame.stride + x, frame.stride, blended + (top - y) * span, span,
            maskPixels + (top - y) * maskStride, maskStride, maskWidth, bottom - top, table.fill, table.source,
            table.inverse, table.overFill)
    }

    /// One row of `width` coverage bytes over the pixels at `out`.
    @inline(__always)
    private static func row(
        _ coverage: UnsafePointer<UInt8>, width: Int, into out: UnsafeMutablePointer<UInt32>, table: OverTable
    ) {
        let source = table.source
        let inverse = table.inverse
        let overFill = table.overFill
        let fill = table.fill
        let fills = UInt64(fill) | UInt64(fill) << 32
        /// Four coverage bytes at `index`: over four fill pixels from the table, else one by one.
        @inline(__always) func four(_ four: UInt32, at index: Int) {
            guard four != 0 else { return }
            // Two 64-bit compares and stores: the SIMD mask's reduction cost more.
            let pixels = UnsafeMutableRawPointer(out + index)
            if pixels.loadUnaligned(as: UInt64.self) == fills
                && pixels.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == fills
            {
                pixels.storeBytes(
                    of: UInt64(overFill[Int(four & 0xFF)]) | UInt64(overFill[Int((four >> 8) & 0xFF)]) << 32,
                    as: UInt64.self)
                pixels.storeBytes(
                    of: UInt64(overFill[Int((four >> 16) & 0xFF)]) | UInt64(overFill[Int(four >> 24)]) << 32,
                    toByteOffset: 8, as: UInt64.self)
            } else {
                for lane in index..<index &+ 4 {
                    blend(coverage[lane], into: out + lane, fill: fill, table: (source, inverse, overFill))
                }
            }
        }
        var index = 0
        // Eight bytes a step: a text layer's rows above and below the x-height and the gaps
        // between its words are empty, eight pixels skipped for one load.
        while index &+ 8 <= width {
            let eight = UnsafeRawPointer(coverage + index).loadUnaligned(as: UInt64.self)
            if eight != 0 {
                four(UInt32(truncatingIfNeeded: eight), at: index)
                four(UInt32(truncatingIfNeeded: eight >> 32), at: index &+ 4)
            }
            index &+= 8
        }
        if index &+ 4 <= width {
            four(UnsafeRawPointer(coverage + index).loadUnaligned(as: UInt32.self), at: index)
            index &+= 4
        }
        while index < width {
            blend(coverage[index], into: out + index, fill: fill, table: (source, inverse, overFill))
            index &+= 1
        }
    }

    /// One pixel: from the table over the fill, else blended.
    @inline(__always)
    private static func blend(
        _ coverage: UInt8, into pixel: UnsafeMutablePointer<UInt32>, fill: UInt32,
        table: (source: UnsafePointer<UInt32>, inverse: UnsafePointer<UInt32>, overFill: UnsafePointer<UInt32>)
    ) {
        guard coverage != 0 else { return }
        let under = pixel.pointee
        pixel.pointee =
            under == fill
            ? table.overFill[Int(coverage)]
            : over(under, source: table.source[Int(coverage)], inverse: table.inverse[Int(coverage)])
    }
}
