extension TurnedCardCompositor {
    /// Where a frame row's walk crosses the raster's open fill (`UniformBlockRuns.OpenFill`):
    /// the pixels whose sample's block is inside the rectangle, exactly. The walk is linear in
    /// the pixel (16.16 steps), so each side is a count of steps: estimated by a multiplication
    /// by 1 / step, then set right by testing the walk's point at it and its neighbour.
    struct OpenFillSpans {
        /// The walk's points (not the samples, half a texel up and left of them) inside: from
        /// `lowX` to before `highX`, and likewise down.
        let lowX: Int64
        let highX: Int64
        let lowY: Int64
        let highY: Int64
        let stepX: Int64
        let stepY: Int64
        let perStepX: Double
        let perStepY: Double

        init(_ fill: UniformBlockRuns.OpenFill, stepX: Int32, stepY: Int32) {
            // A block's samples: left << 16 <= sample < (left + 1) << 16, and the point is the
            // sample plus 0x8000.
            lowX = (Int64(fill.left) << 16) + 0x8000
            highX = (Int64(fill.right) << 16) + 0x8000
            lowY = (Int64(fill.top) << 16) + 0x8000
            highY = (Int64(fill.bottom) << 16) + 0x8000
            self.stepX = Int64(stepX)
            self.stepY = Int64(stepY)
            perStepX = stepX == 0 ? 0 : 1 / Double(stepX.magnitude)
            perStepY = stepY == 0 ? 0 : 1 / Double(stepY.magnitude)
        }

        /// Of the `count` pixels whose walk starts at (`fixedX`, `fixedY`), those inside, as
        /// offsets from the first; empty when none is.
        @inline(__always)
        func span(fixedX: Int32, fixedY: Int32, count: Int) -> Range<Int> {
            let alongX = Self.inside(from: Int64(fixedX), by: stepX, perStep: perStepX, low: lowX, high: highX)
            let alongY = Self.inside(from: Int64(fixedY), by: stepY, perStep: perStepY, low: lowY, high: highY)
            let first = max(alongX.first, alongY.first)
            let limit = min(alongX.limit, alongY.limit, count)
            return first < limit ? first..<limit : 0..<0
        }

        /// The steps k >= 0 with `low <= start + k * step < high`: `first..<limit`, or an empty
        /// pair.
        @inline(__always)
        static func inside(from start: Int64, by step: Int64, perStep: Double, low: Int64, high: Int64)
            -> (first: Int, limit: Int)
        {
            if step > 0 {
                return (
                    reaching(low, from: start, by: step, perStep: perStep),
                    reaching(high, from: start, by: step, perStep: perStep)
                )
            } else if step < 0 {
                // start + k * step < high is -start + k * -step > -high, that is >= 1 - high.
                return (
                    reaching(1 &- high, from: -start, by: -step, perStep: perStep),
                    reaching(1 &- low, from: -start, by: -step, perStep: perStep)
                )
            }
            return low <= start && start < high ? (0, Int.max) : (0, 0)
        }

        /// The first k >= 0 with `start + k * step >= target` (`step` > 0).
        @inline(__always)
        static func reaching(_ target: Int64, from start: Int64, by step: Int64, perStep: Double) -> Int {
            if start >= target { return 0 }
            // Estimated (the distance is below 2^40, exact in a double; the product within one
            // of the quotient), then the first k whose point reaches the target.
            var k = Int64(Double(target &- start) * perStep)
            while start &+ k &* step < target { k &+= 1 }
            while k > 0, start &+ (k &- 1) &* step >= target { k &-= 1 }
            return Int(k)
        }
    }
}
