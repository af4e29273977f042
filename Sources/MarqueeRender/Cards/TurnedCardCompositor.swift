import CBilinear
import CPixman

/// Composites a turned card's raster onto the frame: bilinear sampling through an affine
/// transform, a constant opacity, OVER. It computes what pixman's general path computes for the
/// same transform (the same fixed-point walk from each span's first pixel centre, 7-bit filter
/// weights, truncating interpolation, the combiners' rounding), pixel for pixel, at a fraction of
/// the cost: pixman fetches each span into a scanline buffer with a generic fetcher, clears and
/// combines it in separate passes; this reads four texels and writes the frame once, and skips
/// the interpolation where the four texels are equal, which on a card is most of it (its fill).
/// A sample is interpolated and blended in the processor's vector lanes (`marquee_bilinear` and
/// `marquee_over`, Sources/CBilinear: SSE2, NEON, plain; tools/check-cbilinear).
/// With a map of the raster's uniform blocks (`UniformBlockRuns`), runs of one color are blended
/// without reading texels at all (`compositeRuns`). `TurnedCardCompositorTests` holds both paths
/// to pixman's output on random cards, turns, scales and opacities.
enum TurnedCardCompositor {
    /// `source` is premultiplied a8r8g8b8; `target` is x8r8g8b8 or a8r8g8b8 (its fourth byte is
    /// blended like pixman's, as it is stored). `transform` maps target pixel centres to source
    /// coordinates; `opacity` is the solid mask's 8-bit alpha (255: none); `runs` the raster's
    /// `UniformBlockRuns` maps (the counts, and the color the own map's top bit marks), when built.
    static func composite(
        _ source: PixmanImage, transform: pixman_transform, opacity: UInt32,
        rows: Range<Int32>, columns: Range<Int32>, runs: UniformBlockRuns.Maps? = nil, onto target: PixmanImage
    ) {
        // Runs are followed left to right through the raster, in 32-bit fixed point. The loop
        // without them is kept apart: sharing one, it spilled registers and took 57 instructions
        // a pixel where it takes 40.
        if let runs, transform.matrix.0.0 > 0, source.width < 0x7000, source.height < 0x7000 {
            compositeRuns(
                source, transform: transform, opacity: opacity, rows: rows, columns: columns,
                runs: runs, onto: target)
        } else {
            compositePixels(
                source, transform: transform, opacity: opacity, rows: rows, columns: columns,
                onto: target)
        }
    }

    private static func compositePixels(
        _ source: PixmanImage, transform: pixman_transform, opacity: UInt32,
        rows: Range<Int32>, columns: Range<Int32>, onto target: PixmanImage
    ) {
        guard let sourcePixels = pixman_image_get_data(source.handle),
            let targetPixels = pixman_image_get_data(target.handle)
        else { return }
        let stepX = transform.matrix.0.0
        let stepY = transform.matrix.1.0
        let sourceRow = source.stride / 4
        let targetRow = target.stride / 4
        let width = Int32(source.width)
        let height = Int32(source.height)
        let innerWidth = UInt32(max(0, width - 1))
        let innerHeight = UInt32(max(0, height - 1))

        /// A texel, or transparent outside the raster (pixman's REPEAT_NONE).
        func texel(_ x: Int32, _ y: Int32) -> UInt32 {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return sourcePixels[Int(y) * sourceRow + Int(x)]
        }

        // Runs read ahead follow the walk left to right in 32-bit fixed point, as with a map.
        let scans = stepX > 0 && width < 0x7000 && height < 0x7000
        let walk = Walk(
            stepX: stepX, stepY: stepY, perStepX: 1 / Double(stepX) * (1 - 0x1p-30),
            perStepY: 1 / Double(abs(stepY)) * (1 - 0x1p-30), width: width, sourceRow: sourceRow)

        // The last color blended, the pixel it was blended over and the result (0 over 0 is 0).
        var lastColor: UInt32 = 0
        var lastUnder: UInt32 = 0
        var lastBlend: UInt32 = 0
        guard let reach = Reach(transform, width: width, height: height) else { return }
        for y in rows {
            // Only the pixels whose samples reach the raster (give or take one at each end).
            guard let span = reach.span(ofRow: y, within: columns) else { continue }
            var fixedX = span.fixedX
            var fixedY = span.fixedY
            let out = targetPixels + Int(y) * targetRow
            var x = span.x
            let end = span.end
            while x < end {
                // The four texels around the sample point, which is half a texel up and left.
                let sampleX = fixedX &- 0x8000
                let sampleY = fixedY &- 0x8000
                fixedX &+= stepX
                fixedY &+= stepY
                x &+= 1
                let left = sampleX >> 16
                let top = sampleY >> 16
                var color: UInt32
                // Inside, all four texels: 0 <= left < width - 1 and 0 <= top < height - 1, one
                // unsigned comparison each.
                if UInt32(bitPattern: left) < innerWidth, UInt32(bitPattern: top) < innerHeight {
                    let texels = sourcePixels + (Int(top) &* sourceRow &+ Int(left))
                    let topLeft = texels[0]
                    let topRight = texels[1]
                    let bottomLeft = texels[sourceRow]
                    let bottomRight = texels[sourceRow &+ 1]
                    // Equal texels interpolate to themselves exactly: no arithmetic needed.
                    if topLeft == topRight && topLeft == bottomLeft && topLeft == bottomRight {
                        color = topLeft
                        if scans {
                            // A run of such blocks found by reading the raster ahead (no map yet).
                            let count = uniformRun(
                                color, left: left, top: top, fixedX: fixedX &- stepX, fixedY: fixedY &- stepY,
                                texels: sourcePixels + Int(top) &* sourceRow, walk: walk, remaining: end &- x &+ 1,
                                opacity: opacity, out: out + (x &- 1))
                            if count > 0 {
                                x &+= count &- 1
                                fixedX &+= Int32(truncatingIfNeeded: count &- 1) &* stepX
                                fixedY &+= Int32(truncatingIfNeeded: count &- 1) &* stepY
                                continue
                            }
                        }
                    } else {
                        // Interpolated and blended in one pass (text edges seldom repeat a result).
                        out[x &- 1] = marquee_bilinear_over(
                            topLeft, topRight, bottomLeft, bottomRight, weight(sampleX), weight(sampleY), opacity,
                            out[x &- 1])
                        continue
                    }
                } else if left >= width || top >= height || left < -1 || top < -1 {
                    continue
                } else {
                    out[x &- 1] = marquee_bilinear_over(
                        texel(left, top), texel(left + 1, top), texel(left, top + 1), texel(left + 1, top + 1),
                        weight(sampleX), weight(sampleY), opacity, out[x &- 1])
                    continue
                }
                if color == 0 { continue }
                // Most of a card is its fill over a plain background: the same color over the same
                // pixel, again and again. The last result is kept and reused for a repeat.
                let under = out[x &- 1]
                if color != lastColor || under != lastUnder {
                    lastColor = color
                    lastUnder = under
                    lastBlend = marquee_over(color, opacity, under)
                }
                out[x &- 1] = lastBlend
            }
        }
    }

    /// The walk's steps and sizes a run found ahead needs.
    struct Walk {
        let stepX: Int32
        let stepY: Int32
        let perStepX: Double
        let perStepY: Double
        let width: Int32
        let sourceRow: Int
    }

    /// Without a map: the pixels from this one on whose samples stay in uniform blocks of
    /// `color` on row `top` (slack 0: a run read from the raster holds for one row of blocks),
    /// blended at once; 0 (nothing blended) when fewer than eight would. The raster's two rows
    /// are read only as far as the samples can reach before they leave the row. Kept out of the
    /// per-pixel loop, whose registers it would crowd.
    @inline(never)
    static func uniformRun(
        _ color: UInt32, left: Int32, top: Int32, fixedX: Int32, fixedY: Int32, texels: UnsafePointer<UInt32>,
        walk: Walk, remaining: Int, opacity: UInt32, out: UnsafeMutablePointer<UInt32>
    ) -> Int {
        var count = remaining
        if walk.stepY > 0 {
            count = min(count, steps(within: ((top &+ 1) << 16) &+ 0x8000 &- fixedY, perStep: walk.perStepY))
        } else if walk.stepY < 0 {
            count = min(count, steps(within: fixedY &- ((top << 16) &+ 0x7FFF), perStep: walk.perStepY))
        }
        guard count >= 8 else { return 0 }
        // The last texel column the samples can reach (the right one of the last sample's block).
        let lastSample = Int(fixedX) &- 0x8000 &+ (count &- 1) &* Int(walk.stepX)
        let reach = min(Int(walk.width) &- 1, (lastSample >> 16) &+ 1)
        let bottom = texels + walk.sourceRow
        var column = Int(left) &+ 2
        // Four columns a compare while all four are within reach, then one by one.
        let colors = SIMD4<UInt32>(repeating: color)
        while column &+ 3 <= reach {
            let above = UnsafeRawPointer(texels + column).loadUnaligned(as: SIMD4<UInt32>.self)
            let below = UnsafeRawPointer(bottom + column).loadUnaligned(as: SIMD4<UInt32>.self)
            if !all((above .== colors) .& (below .== colors)) { break }
            column &+= 4
        }
        while column <= reach && texels[column] == color && bottom[column] == color { column &+= 1 }
        // Columns left ... column - 1 hold the color on both rows: the blocks from left to
        // column - 2 are uniform.
        let length = Int32(truncatingIfNeeded: column &- 1) &- left
        count = min(count, steps(within: ((left &+ length) << 16) &+ 0x8000 &- fixedX, perStep: walk.perStepX))
        marquee_run_over(out, count, opacity == 255 ? color : multiply(color, by: opacity))
        return count
    }

    /// The filter weight of a 16.16 coordinate: the top 7 bits of its fraction.
    @inline(__always)
    static func weight(_ fixed: Int32) -> UInt32 { UInt32(truncatingIfNeeded: (fixed >> 9) & 0x7F) }

    /// Each channel times `factor` / 255, rounded as pixman's combiners round.
    @inline(__always)
    static func multiply(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        var redBlue = (pixel & 0x00FF_00FF) &* factor &+ 0x0080_0080
        redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var alphaGreen = ((pixel >> 8) & 0x00FF_00FF) &* factor &+ 0x0080_0080
        alphaGreen = (alphaGreen &+ ((alphaGreen >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return redBlue | alphaGreen
    }
}
