import Glibc
import MarqueeCore

/// The outline of a scaled and turned card on the frame, as the span of columns each row of the
/// frame may receive: the clip of pixman's path (tinted turned cards; Marquee's own compositor
/// finds its spans from its walk, `TurnedCardCompositor.Reach`). A turned card covers a fraction
/// of its bounding box; compositing only these spans keeps the bilinear work off the empty corners. A pixel is touched when its centre's
/// sample falls within half a texel of the raster (its bilinear filter then reaches a texel): the
/// outline is the card grown by half a texel, and by `margin` pixels more for the fixed-point walk
/// the compositors take (whose error, a 16.16 step added up to some thousand times, stays below a
/// hundredth of a texel). Only the pixel centres' line of each row is looked at: a turned card's
/// slanted top and bottom edges cross it once, where the band of rows around it (the outline's
/// first version) crossed them over tens of pixels, each sampled outside the raster for nothing.
struct TurnedCardOutline {
    /// Corners in order around the card, turned clockwise by the rotation (y points down),
    /// matching the inverse transform the compositor samples with.
    private let corners: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    /// Pixels added around the card grown by half a texel.
    static let margin = 1.5

    init(_ item: DisplayList.Item, rasterWidth: Int, rasterHeight: Int) {
        let halfWidth = (Double(rasterWidth) + 1) / 2 * item.scale + Self.margin
        let halfHeight = (Double(rasterHeight) + 1) / 2 * item.scale + Self.margin
        let center = SIMD2(item.frame.x + item.frame.width / 2, item.frame.y + item.frame.height / 2)
        let cosine = cos(item.rotation)
        let sine = sin(item.rotation)
        func turned(_ x: Double, _ y: Double) -> SIMD2<Double> {
            center + SIMD2(cosine * x - sine * y, sine * x + cosine * y)
        }
        corners = (
            turned(-halfWidth, -halfHeight), turned(halfWidth, -halfHeight), turned(halfWidth, halfHeight),
            turned(-halfWidth, halfHeight)
        )
    }

    /// The columns `x1..<x2` of `row` the card can touch, within `columns`; nil when none.
    func span(ofRow row: Int32, within columns: Range<Int32>) -> (x1: Int32, x2: Int32)? {
        let centre = Double(row) + 0.5
        var left = Double.infinity
        var right = -Double.infinity
        /// Where edge a→b crosses the row's line of pixel centres, if it does.
        func include(_ a: SIMD2<Double>, _ b: SIMD2<Double>) {
            guard max(a.y, b.y) >= centre, min(a.y, b.y) <= centre else { return }
            if a.y == b.y {
                left = min(left, a.x, b.x)
                right = max(right, a.x, b.x)
                return
            }
            let x = a.x + (b.x - a.x) * ((centre - a.y) / (b.y - a.y))
            left = min(left, x)
            right = max(right, x)
        }
        include(corners.0, corners.1)
        include(corners.1, corners.2)
        include(corners.2, corners.3)
        include(corners.3, corners.0)
        guard left <= right else { return nil }
        // Pixels whose centres x + 0.5 lie in left...right.
        let x1 = max(columns.lowerBound, Int32(max(-1e9, (left - 0.5).rounded(.down))))
        let x2 = min(columns.upperBound, Int32(min(1e9, (right - 0.5).rounded(.down))) + 1)
        return x2 > x1 ? (x1, x2) : nil
    }
}
