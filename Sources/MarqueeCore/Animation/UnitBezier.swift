/// A CSS-style timing function: a cubic Bézier from (0, 0) to (1, 1) with control points
/// (x1, y1) and (x2, y2). Evaluating it at progress x means solving x(t) = x for the curve
/// parameter t, then returning y(t). Newton's method converges in a few steps on most curves;
/// bisection finishes the rare ones where the slope is nearly flat. (The approach WebKit's
/// UnitBezier takes; written here from the polynomial form.)
public struct UnitBezier: Equatable, Sendable {
    public let x1: Double, y1: Double, x2: Double, y2: Double
    // Polynomial coefficients: x(t) = ((ax t + bx) t + cx) t, likewise y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// `x1` and `x2` must lie in [0, 1] so that x(t) is monotonic (the parser checks this).
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "UnitBezier: x1 and x2 must lie in [0, 1]")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t with x(t) = x, to within `epsilon`.
    func solveForParameter(x: Double, epsilon: Double = 1e-9) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var lower = 0.0
        var upper = 1.0
        t = min(max(x, 0), 1)
        for _ in 0..<64 {
            let value = sampleX(t)
            if abs(value - x) < epsilon { return t }
            if value < x { lower = t } else { upper = t }
            t = (lower + upper) / 2
        }
        return t
    }

    /// y at progress x in [0, 1].
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return sampleY(solveForParameter(x: x))
    }
}
