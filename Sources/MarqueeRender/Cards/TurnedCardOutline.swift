import Glibc
import MarqueeCore

/// The outline of a scaled and turned card on the frame, as the span of columns each row of the
/// frame may receive. A turned card covers a fraction of its bounding box; compositing only these
/// spans keeps the bilinear work off the empty corners.
struct TurnedCardOutline {
    /// Corners in order around the card, turned clockwise by the rotation (y points down),
    /// matching the inverse transform the compositor samples with.
    private let corners: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    /// How far past the outline the bilinear filter reaches: a source pixel, which is at most
    /// `scale` target pixels, plus one.
    private let reach: Double

    init(_ item: DisplayList.Item, rasterWidth: Int, rasterHeight: Int) {
        let halfWidth = Double(rasterWidth) / 2 * item.scale
        let halfHeight = Double(rasterHeight) / 2 * item.scale
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
        reach = max(1, item.scale).rounded(.up) + 1
    }

    /// The columns `x1..<x2` of `row` the card can touch, within `columns`; nil when none.
    func span(ofRow row: Int32, within columns: Range<Int32>) -> (x1: Int32, x2: Int32)? {
        let top = Double(row) - reach
        let bottom = Double(row + 1) + reach
        var left = Double.infinity
        var right = -Double.infinity
        func include(_ a: SIMD2<Double>, _ b: SIMD2<Double>) {
            guard max(a.y, b.y) >= top, min(a.y, b.y) <= bottom else { return }
            // The part of edge a→b inside the band top...bottom.
            var low = 0.0
            var high = 1.0
            if a.y != b.y {
                let entering = (top - a.y) / (b.y - a.y)
                let leaving = (bottom - a.y) / (b.y - a.y)
                low = max(0, min(entering, leaving))
                high = min(1, max(entering, leaving))
            }
            let xLow = a.x + (b.x - a.x) * low
            let xHigh = a.x + (b.x - a.x) * high
            left = min(left, xLow, xHigh)
            right = max(right, xLow, xHigh)
        }
        include(corners.0, corners.1)
        include(corners.1, corners.2)
        include(corners.2, corners.3)
        include(corners.3, corners.0)
        guard left <= right else { return nil }
        let x1 = max(columns.lowerBound, Int32((left - reach).rounded(.down)))
        let x2 = min(columns.upperBound, Int32((right + reach).rounded(.up)))
        return x2 > x1 ? (x1, x2) : nil
    }
}
