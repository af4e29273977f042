/// A parsed JSON document. Marquee parses JSON itself (instead of Foundation's JSONSerialization)
/// so that start-up stays small, object key order is kept for error messages, and every problem
/// can be reported with its JSON path.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    /// Members in document order; duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a.value == b.value
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON number: its value, and its text as the document wrote it. A card's `fields` show a
/// number as written (`4.50` stays `4.50`, `12345678901234567890` keeps its digits), which the
/// value alone cannot give back; everything else uses the value.
public struct JSONNumber: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public var value: Double
    /// Valid JSON number text (the reader's token, or the value written out).
    public var text: String

    public init(_ value: Double) {
        self.value = value
        self.text = JSONNumber.format(value)
    }

    /// `text` must be the JSON text of `value` (the reader checks both).
    init(value: Double, text: String) {
        self.value = value
        self.text = text
    }

    public init(integerLiteral value: Int) { self.init(Double(value)) }
    public init(floatLiteral value: Double) { self.init(value) }

    /// A whole number without a fraction, others as Swift writes them (made only for values given
    /// in code: numbers read keep their own text).
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    }
}
