/// How progress in time maps to progress in value (SPEC §3). Pure functions of f in [0, 1].
///
/// `ease-in-out` is smoothstep, as the SPEC fixes. `ease-in` and `ease-out` are its two halves'
/// quadratic counterparts (f² and 1 - (1 - f)²): the SPEC does not define them, and these keep
/// the family polynomial and cheap; docs/protocol.md states the formulas.
public enum TimingCurve: Equatable, Sendable, CustomStringConvertible {
    case linear
    case easeIn
    case easeOut
    case easeInOut
    case cubicBezier(UnitBezier)

    public static let `default` = TimingCurve.easeInOut

    public func value(at progress: Double) -> Double {
        let f = min(max(progress, 0), 1)
        switch self {
        case .linear: return f
        case .easeIn: return f * f
        case .easeOut: return f * (2 - f)
        case .easeInOut: return f * f * (3 - 2 * f)
        case .cubicBezier(let bezier): return bezier.value(at: f)
        }
    }

    /// How far a `cubic-bezier` control point's y may lie from 0: far past any bounce a curve is
    /// written for, and a bound on how far one overshoots.
    public static let maximumControlY = 100.0

    /// The curves a command or deck may name, with the bounds of `cubic-bezier`'s numbers, for
    /// errors.
    public static let choices =
        "linear, ease-in, ease-out, ease-in-out or cubic-bezier(x1,y1,x2,y2) with x1, x2 in [0, 1] and y1, y2 in [-\(Int(maximumControlY)), \(Int(maximumControlY))]"

    /// Parses a curve name: `linear`, `ease-in`, `ease-out`, `ease-in-out` or
    /// `cubic-bezier(x1,y1,x2,y2)` with x1 and x2 in [0, 1] and y1 and y2 within
    /// ±`maximumControlY`.
    public init?(name: String) {
        switch name {
        case "linear": self = .linear
        case "ease-in": self = .easeIn
        case "ease-out": self = .easeOut
        case "ease-in-out": self = .easeInOut
        default:
            guard name.hasPrefix("cubic-bezier("), name.hasSuffix(")") else { return nil }
            let inner = name.dropFirst("cubic-bezier(".count).dropLast()
            let numbers = inner.split(separator: ",", omittingEmptySubsequences: false).map {
                DecimalNumber.parse($0.trimmingSpaces)
            }
            guard numbers.count == 4, let x1 = numbers[0], let y1 = numbers[1], let x2 = numbers[2],
                let y2 = numbers[3], [x1, y1, x2, y2].allSatisfy(\.isFinite), (0...1).contains(x1),
                (0...1).contains(x2), abs(y1) <= Self.maximumControlY, abs(y2) <= Self.maximumControlY
            else { return nil }
            self = .cubicBezier(UnitBezier(x1: x1, y1: y1, x2: x2, y2: y2))
        }
    }

    public var description: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "ease-in"
        case .easeOut: return "ease-out"
        case .easeInOut: return "ease-in-out"
        case .cubicBezier(let b): return "cubic-bezier(\(b.x1),\(b.y1),\(b.x2),\(b.y2))"
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
