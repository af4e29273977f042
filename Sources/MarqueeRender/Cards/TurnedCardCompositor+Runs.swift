import CBilinear
import CPixman

/// The compositor's path for rasters with a map of uniform blocks (`UniformBlockRuns`): a sample
/// that falls in a run of uniform blocks starts a run of frame pixels that all take that one
/// color, blended four at a time in 16-bit lanes; other samples are interpolated one by one as
/// in `compositePixels`. The same pixels, exactly, as pixman gives.
extension TurnedCardCompositor {
    static func compositeRuns(
        _ source: PixmanImage, transform: pixman_transform, opacity: UInt32,
        rows: Range<Int32>, columns: Range<Int32>, runs maps: UniformBlockRuns.Maps, onto target: PixmanImage
    ) {
        guard let sourcePixels = pixman_image_get_data(source.handle),
            let targetPixels = pixman_image_get_data(target.handle)
        else { return }
        let runs = maps.lengths
        let common = maps.commonColor
        let edgeColors = maps.edgeColors
        let stepX = transform.matrix.0.0
        let stepY = transform.matrix.1.0
        let sourceRow = source.stride / 4
        let targetRow = target.stride / 4
        let targetWidth = target.width
        let width = Int32(source.width)
        let height = Int32(source.height)
        let innerWidth = UInt32(max(0, width - 1))
        let innerHeight = UInt32(max(0, height - 1))
        let mapSize = Int(width) * Int(height)
        // Divisions by the steps, as multiplications by 2^32 / step rounded down: a count one
        // short only starts the next run a pixel early, a count one long would be wrong.
        let perStepX = UInt64(1 << 32) / UInt64(stepX)
        let perStepY = stepY == 0 ? 0 : UInt64(1 << 32) / UInt64(stepY.magnitude)
        // The last run's color, and that color at the opacity.
        var runColor: UInt32 = 0
        var runFaded: UInt32 = 0

        /// A texel, or transparent outside the raster (pixman's REPEAT_NONE).
        func texel(_ x: Int32, _ y: Int32) -> UInt32 {
            guard x >= 0, y >= 0, x < width, y < height else { return 0 }
            return sourcePixels[Int(y) * sourceRow + Int(x)]
        }

        // Where the same frame column reads, `prefetchRows` rows further down: that row's walk
        // crosses the raster's rows a few texels along from this one's, in cache lines this row
        // only starts to use. Those lines of the maps, and of the raster where this row reads
        // it (not for a run of the fill, whose color the map holds), are asked for now
        // (`marquee_prefetch`), so the row that needs them does not wait for the L3 cache.
        let aheadX = Int((Int64(transform.matrix.0.1) &* Int64(Self.prefetchRows)) >> 16)
        let aheadY = Int((Int64(transform.matrix.1.1) &* Int64(Self.prefetchRows)) >> 16)
        let rasterAhead = UInt(bitPattern: (aheadY &* sourceRow &+ aheadX) &* 4)
        let mapAhead = UInt(bitPattern: aheadY &* Int(width) &+ aheadX)
        let rasterAddress = UInt(bitPattern: sourcePixels)
        let mapAddress = UInt(bitPattern: runs)
        let mapBytes = UInt(bitPattern: mapSize)
        guard let reach = Reach(transform, width: width, height: height) else { return }
        // The open fill's crossing of each row, blended as one run of its color.
        let openFill = maps.openFill.map { OpenFillSpans($0, stepX: stepX, stepY: stepY) }
        let otherOpenFill = maps.otherOpenFill.map { OpenFillSpans($0, stepX: stepX, stepY: stepY) }
        let fillFaded = opacity == 255 ? common : multiply(common, by: opacity)
        for y in rows {
            // Only the pixels whose samples reach the raster (give or take one at each end).
            guard let span = reach.span(ofRow: y, within: columns) else { continue }
            var fixedX = span.fixedX
            var fixedY = span.fixedY
            let out = targetPixels + Int(y) * targetRow
            var x = span.x
            let end = span.end
            let fill = openFill?.span(fixedX: fixedX, fixedY: fixedY, count: end &- x) ?? 0..<0
            let fillStart = x &+ fill.lowerBound
            let fillEnd = x &+ fill.upperBound
            let fillCount = UInt(bitPattern: fill.count)
            let other = otherOpenFill?.span(fixedX: fixedX, fixedY: fixedY, count: end &- x) ?? 0..<0
            let otherStart = x &+ other.lowerBound
            let otherEnd = x &+ other.upperBound
            let otherCount = UInt(bitPattern: other.count)
            while x < end {
                // In an open fill: its color to the end of the crossing, no map read (the two
                // rectangles hold different blocks, so their crossings do not overlap).
                let inFill = UInt(bitPattern: x &- fillStart) < fillCount
                if inFill || UInt(bitPattern: x &- otherStart) < otherCount {
                    let count = (inFill ? fillEnd : otherEnd) &- x
                    marquee_run_over(out + x, count, fillFaded)
                    x &+= count
                    fixedX &+= Int32(truncatingIfNeeded: count) &* stepX
                    fixedY &+= Int32(truncatingIfNeeded: count) &* stepY
                    continue
                }
                // The four texels around the sample point, which is half a texel up and left.
                let sampleX = fixedX &- 0x8000
                let sampleY = fixedY &- 0x8000
                let left = sampleX >> 16
                let top = sampleY >> 16
                // Inside, all four texels: 0 <= left < width - 1 and 0 <= top < height - 1, one
                // unsigned comparison each.
                if UInt32(bitPattern: left) < innerWidth, UInt32(bitPattern: top) < innerHeight {
                    let offset = Int(top) &* sourceRow &+ Int(left)
                    // A run valid from `top - slack` to `top + slack`, or on `top` alone: the
                    // widest map's when it is as long as the next one's (it then holds for more
                    // rows and as many columns), else whichever run lasts longer on this path.
                    // The row's own map first: a block not uniform (0) has no run in the
                    // others either, which hold the least over more rows.
                    let index = Int(top) &* Int(width) &+ Int(left)
                    marquee_prefetch(mapAddress &+ UInt(bitPattern: index) &+ mapAhead)
                    let own = runs[index]
                    if own != 0 {
                        var length = Int32(UniformBlockRuns.ownCount(own))
                        var slack: Int32 = 0
                        var wideLength: Int32 = 0
                        let middle = Int32(runs[mapSize &+ index])
                        marquee_prefetch(mapAddress &+ mapBytes &+ UInt(bitPattern: index) &+ mapAhead)
                        marquee_prefetch(mapAddress &+ 2 &* mapBytes &+ UInt(bitPattern: index) &+ mapAhead)
                        if middle != 0 {
                            length = middle
                            slack = Int32(UniformBlockRuns.slack)
                            wideLength = Int32(runs[2 &* mapSize &+ index])
                        }
                        /// The pixels whose samples stay in a run of `length` uniform blocks from
                        /// `left`, top within `slack` rows of `top`.
                        @inline(__always)
                        func pixels(_ length: Int32, _ slack: Int32) -> Int {
                            let count = Self.steps(
                                within: ((left &+ length) << 16) &+ 0x8000 &- fixedX, perStep: perStepX)
                            if stepY > 0 {
                                return min(
                                    count,
                                    Self.steps(
                                        within: ((top &+ slack &+ 1) << 16) &+ 0x8000 &- fixedY, perStep: perStepY))
                            } else if stepY < 0 {
                                return min(
                                    count,
                                    Self.steps(
                                        within: fixedY &- (((top &- slack) << 16) &+ 0x7FFF), perStep: perStepY))
                            }
                            return count
                        }
                        let wideSlack = Int32(UniformBlockRuns.wideSlack)
                        var count: Int
                        if wideLength == 0 || stepY == 0 {
                            count = pixels(length, slack)
                        } else if wideLength == length {
                            count = pixels(wideLength, wideSlack)
                        } else {
                            count = max(pixels(length, slack), pixels(wideLength, wideSlack))
                        }
                        count = min(count, end &- x)
                        // The fill's runs need no texel read: the map says their color.
                        let color: UInt32
                        if UniformBlockRuns.isCommon(own) {
                            color = common
                        } else {
                            marquee_prefetch(rasterAddress &+ UInt(bitPattern: offset &* 4) &+ rasterAhead)
                            color = sourcePixels[offset]
                        }
                        if color != runColor {
                            runColor = color
                            runFaded = opacity == 255 ? color : multiply(color, by: opacity)
                        }
                        // Short runs (between glyphs, mostly) without a branch on their length,
                        // where the row has the eight pixels it touches.
                        if count <= 8, x &+ 8 <= targetWidth {
                            marquee_run_over_eight(out + x, count, runFaded)
                        } else {
                            marquee_run_over(out + x, count, runFaded)
                        }
                        x &+= count
                        fixedX &+= Int32(truncatingIfNeeded: count) &* stepX
                        fixedY &+= Int32(truncatingIfNeeded: count) &* stepY
                        continue
                    }
                    let texels = sourcePixels + offset
                    marquee_prefetch(rasterAddress &+ UInt(bitPattern: offset &* 4) &+ rasterAhead)
                    // Not a uniform block (the map would hold a run), so not worth testing for
                    // one: the interpolation of equal texels gives them back anyway. Interpolated
                    // and blended in one pass, without keeping the last result: a turned card's
                    // samples here (text edges) seldom repeat a color over the same pixel. When
                    // the next pixel's sample is one too (inside, not uniform: so in no run and
                    // no open fill), the two go through the lanes together.
                    let nextX = fixedX &+ stepX &- 0x8000
                    let nextY = fixedY &+ stepY &- 0x8000
                    let nextLeft = nextX >> 16
                    let nextTop = nextY >> 16
                    if x &+ 1 < end, UInt32(bitPattern: nextLeft) < innerWidth,
                        UInt32(bitPattern: nextTop) < innerHeight,
                        runs[Int(nextTop) &* Int(width) &+ Int(nextLeft)] == 0
                    {
                        marquee_bilinear_over_two(
                            texels, sourcePixels + (Int(nextTop) &* sourceRow &+ Int(nextLeft)), sourceRow,
                            weight(sampleX), weight(sampleY), weight(nextX), weight(nextY), opacity, out + x)
                        x &+= 2
                        fixedX &+= stepX &* 2
                        fixedY &+= stepY &* 2
                        continue
                    }
                    out[x] = marquee_bilinear_over(
                        texels[0], texels[1], texels[sourceRow], texels[sourceRow &+ 1], weight(sampleX),
                        weight(sampleY), opacity, out[x])
                } else if UInt32(bitPattern: left) < innerWidth, top == -1 || top == height &- 1 {
                    // Along the raster's top or bottom edge (most edge samples: a card is far
                    // wider than tall): one row of the two inside, the other transparent.
                    if let edgeColors, height > 1 {
                        // Where the edge row and the one inside it are the fill (a marked run
                        // of the own map in their blocks), each sample's color is the table's
                        // for its vertical weight: a stretch to the end of the run, or to where
                        // the walk leaves the edge row, is blended in one loop.
                        let own = runs[Int(top < 0 ? 0 : height &- 2) &* Int(width) &+ Int(left)]
                        if UniformBlockRuns.isCommon(own) {
                            var count = Self.steps(
                                within: ((left &+ Int32(UniformBlockRuns.ownCount(own))) << 16) &+ 0x8000 &- fixedX,
                                perStep: perStepX)
                            if stepY > 0 {
                                count = min(
                                    count, Self.steps(within: ((top &+ 1) << 16) &+ 0x8000 &- fixedY, perStep: perStepY)
                                )
                            } else if stepY < 0 {
                                count = min(
                                    count, Self.steps(within: fixedY &- ((top << 16) &+ 0x7FFF), perStep: perStepY))
                            }
                            count = min(count, end &- x)
                            marquee_edge_run_over(out + x, count, edgeColors + (top < 0 ? 0 : 128), fixedY, stepY)
                            x &+= count
                            fixedX &+= Int32(truncatingIfNeeded: count) &* stepX
                            fixedY &+= Int32(truncatingIfNeeded: count) &* stepY
                            continue
                        }
                    }
                    let inside = sourcePixels + (Int(top < 0 ? 0 : top) &* sourceRow &+ Int(left))
                    let first = inside[0]
                    let second = inside[1]
                    let above = top < 0
                    out[x] = marquee_bilinear_over(
                        above ? 0 : first, above ? 0 : second, above ? first : 0, above ? second : 0,
                        weight(sampleX), weight(sampleY), opacity, out[x])
                } else if left < width, top < height, left >= -1, top >= -1 {
                    // On the raster's left or right edge: the texels outside it transparent,
                    // interpolated in lanes as inside.
                    out[x] = marquee_bilinear_over(
                        texel(left, top), texel(left + 1, top), texel(left, top + 1), texel(left + 1, top + 1),
                        weight(sampleX), weight(sampleY), opacity, out[x])
                }
                x &+= 1
                fixedX &+= stepX
                fixedY &+= stepY
            }
        }
    }

    /// How many rows ahead the compositor asks for the cache lines a row will read: 2, 4, 6 and
    /// 8 measured about alike, 16 less well (docs/performance.md).
    static let prefetchRows: Int64 = 4

    /// How many of 0, step, 2 step, ... are below `distance` (> 0), or one fewer, never more:
    /// floor((distance - 1) / step) + 1, the quotient by a multiplication by `perStep`, 2^32 /
    /// step rounded down (too small by under 1 / 2^32 a unit of the dividend, which is below
    /// 2^31). In integers: the double's conversions and additions below took three times as
    /// long, on the path from one run to the next (docs/performance.md).
    @inline(__always)
    static func steps(within distance: Int32, perStep: UInt64) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt32(bitPattern: distance &- 1)) &* perStep) >> 32) &+ 1
    }

    /// How many of 0, step, 2 step, ... are below `distance` (> 0), or fewer, never more:
    /// `perStep` is a little under 1 / step. At least 1. The quotient q is rounded to nearest
    /// after taking half off, which is never above floor(q) and at most one below it, by adding
    /// 1.5 * 2^52 (whose last bits then hold the integer): `Int(q)` checks its range first.
    @inline(__always)
    static func steps(within distance: Int32, perStep: Double) -> Int {
        let quotient = Double(distance &- 1) * perStep - 0.5 + 0x1.8p52
        return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: quotient.bitPattern)) &+ 1
    }
}
