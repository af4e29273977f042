/// A value that keyframes can interpolate: `(to - from) * local + from`.
public protocol KeyframeValue: Equatable, Sendable {
    static func interpolate(from: Self, to: Self, local: Double) -> Self
}

extension Double: KeyframeValue {
    public static func interpolate(from: Double, to: Double, local: Double) -> Double { (to - from) * local + from }
}

extension SIMD4: KeyframeValue where Scalar == Double {
    public static func interpolate(from: SIMD4<Double>, to: SIMD4<Double>, local: Double) -> SIMD4<Double> {
        (to - from) * local + from
    }
}

/// Values at positions (SPEC §4): between two keyframes the value is
/// `(to - from) * local + from` with `local` the position's fraction of the way between them;
/// before the first and after the last the end value holds. Two keyframes at the same position
/// make a step (a "hold"): the later one wins from that position on.
public struct Keyframes<Value: KeyframeValue>: Equatable, Sendable {
    public struct Stop: Equatable, Sendable {
        public var at: Double
        public var value: Value

        public init(at: Double, value: Value) {
            self.at = at
            self.value = value
        }
    }

    /// In ascending order of `at` (the deck decoder checks this); never empty.
    public let stops: [Stop]

    public init(_ stops: [Stop]) {
        precondition(!stops.isEmpty, "Keyframes: at least one stop")
        precondition(zip(stops, stops.dropFirst()).allSatisfy { $0.at <= $1.at }, "Keyframes: stops out of order")
        self.stops = stops
    }

    public func value(at position: Double) -> Value {
        guard position >= stops[0].at else { return stops[0].value }
        guard let last = stops.last, position < last.at else { return stops[stops.count - 1].value }
        // The last stop at or before `position`; few stops, so a linear scan.
        var index = 0
        while index + 1 < stops.count, stops[index + 1].at <= position { index += 1 }
        let from = stops[index]
        let to = stops[index + 1]
        let local = (position - from.at) / (to.at - from.at)
        return Value.interpolate(from: from.value, to: to.value, local: local)
    }
}
