import CPixman

extension TurnedCardCompositor {
    /// Where each frame row's samples reach the raster: the pixels whose bilinear filter touches
    /// a texel (the sample point within half a texel of the raster, on both axes), worked out from
    /// the fixed-point walk itself. The walk is linear in the frame's column and row: pixman's
    /// point transform multiplies each coordinate's whole part and its half (the pixel centre)
    /// separately and rounds only the halves' sum, so the point at (x, y) is the point at (0, 0)
    /// plus x steps along the row and y steps down, exactly. A row then needs no transform of its
    /// own, and no outline: the span of pixels is found by dividing the distances to the raster's
    /// edges by the steps, which leaves out the tens of samples a row that fell outside the raster
    /// on a slightly turned card's slanted edges within the outline's margin.
    struct Reach {
        /// The walk's point at frame pixel (0, 0), 16.16.
        let originX: Int64
        let originY: Int64
        let stepX: Int32
        let stepY: Int32
        /// The walk's steps down the frame (one row).
        let downX: Int64
        let downY: Int64
        /// 1 / |step|, a hair small (see `steps(within:perStep:)`).
        let perStepX: Double
        let perStepY: Double
        /// Sample points x with `-0x8000 <= x < limitX` (16.16) reach a texel, and likewise y.
        let limitX: Int64
        let limitY: Int64

        init?(_ transform: pixman_transform, width: Int32, height: Int32) {
            var transform = transform
            var origin = pixman_vector(vector: (0x8000, 0x8000, 0x10000))
            guard pixman_transform_point_3d(&transform, &origin) != 0 else { return nil }
            originX = Int64(origin.vector.0)
            originY = Int64(origin.vector.1)
            stepX = transform.matrix.0.0
            stepY = transform.matrix.1.0
            downX = Int64(transform.matrix.0.1)
            downY = Int64(transform.matrix.1.1)
            perStepX = stepX == 0 ? 0 : 1 / Double(stepX.magnitude) * (1 - 0x1p-30)
            perStepY = stepY == 0 ? 0 : 1 / Double(stepY.magnitude) * (1 - 0x1p-30)
            limitX = (Int64(width) << 16) + 0x8000
            limitY = (Int64(height) << 16) + 0x8000
        }

        /// The pixels of row `y` within `columns` whose samples may reach the raster, `x..<end`
        /// (never one too few: it may hold a pixel more at either end, whose sample the
        /// compositor finds outside), and the walk's point at `x`; nil when none can.
        @inline(__always)
        func span(ofRow y: Int32, within columns: Range<Int32>) -> (x: Int, end: Int, fixedX: Int32, fixedY: Int32)? {
            let startX = originX &+ downX &* Int64(y) &+ Int64(stepX) &* Int64(columns.lowerBound)
            let startY = originY &+ downY &* Int64(y) &+ Int64(stepY) &* Int64(columns.lowerBound)
            guard let alongX = Self.steps(from: startX, by: stepX, perStep: perStepX, below: limitX),
                let alongY = Self.steps(from: startY, by: stepY, perStep: perStepY, below: limitY)
            else { return nil }
            let first = max(alongX.first, alongY.first)
            let limit = min(alongX.limit, alongY.limit, Int(columns.count))
            guard first < limit else { return nil }
            let fixedX = startX &+ Int64(stepX) &* Int64(first)
            let fixedY = startY &+ Int64(stepY) &* Int64(first)
            // Where pixman's transform would fail (a point beyond 16.16), the row is left out as
            // pixman leaves it.
            guard let x = Int32(exactly: fixedX), let y = Int32(exactly: fixedY) else { return nil }
            let origin = Int(columns.lowerBound)
            return (origin &+ first, origin &+ limit, x, y)
        }

        /// The steps k = 0, 1, ... of `start + k * step` that fall within -0x8000 ..< `limit`: from
        /// `first` (never after the first that does) to before `limit` (never before past the
        /// last); nil when none does.
        @inline(__always)
        static func steps(from start: Int64, by step: Int32, perStep: Double, below limit: Int64)
            -> (first: Int, limit: Int)?
        {
            /// The steps strictly within `distance` (> 0) of the start, exactly or one fewer.
            func within(_ distance: Int64) -> Int {
                TurnedCardCompositor.steps(within: Int32(min(distance, Int64(Int32.max))), perStep: perStep)
            }
            /// Past the last step strictly within `distance` (> 0): never too early.
            func past(_ distance: Int64) -> Int {
                distance > Int64(Int32.max) ? Int.max : within(distance) &+ 1
            }
            if step > 0 {
                guard start < limit else { return nil }
                return (start < -0x8000 ? within(-0x8000 &- start) : 0, past(limit &- start))
            } else if step < 0 {
                guard start >= -0x8000 else { return nil }
                return (start >= limit ? within(start &- limit &+ 1) : 0, past(start &+ 0x8000 &+ 1))
            }
            return start >= -0x8000 && start < limit ? (0, Int.max) : nil
        }
    }
}
