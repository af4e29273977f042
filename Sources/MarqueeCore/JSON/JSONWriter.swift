/// Appends JSON text to a byte buffer. Used for replies, events and the frame trace, whose field
/// order and number format outside tools read, so the writer keeps both under our control.
/// The buffer keeps its capacity across `reset()`, so a writer reused per frame does not allocate.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// One entry per open container: whether a value was already written in it.
    private var containerHasValue: [Bool] = []
    /// True between `key(_:)` and the member's value.
    private var afterKey = false

    public init(reservingCapacity capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
        containerHasValue.reserveCapacity(8)
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        containerHasValue.removeAll(keepingCapacity: true)
        afterKey = false
    }

    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes the comma that separates this value from the previous one in its container.
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        if let last = containerHasValue.indices.last {
            if containerHasValue[last] { bytes.append(UInt8(ascii: ",")) }
            containerHasValue[last] = true
        }
    }

    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        containerHasValue.append(false)
    }

    public mutating func endObject() {
        containerHasValue.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        containerHasValue.append(false)
    }

    public mutating func endArray() {
        containerHasValue.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes `"name":`; the next value written is the member's value.
    public mutating func key(_ name: String) {
        beforeValue()
        appendQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    public mutating func value(_ string: String) {
        beforeValue()
        appendQuoted(string)
    }

    public mutating func value(_ number: Double) {
        beforeValue()
        appendNumber(number)
    }

    public mutating func value(_ number: Int) {
        beforeValue()
        appendInteger(Int64(number))
    }

    public mutating func value(_ flag: Bool) {
        beforeValue()
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    public mutating func null() {
        beforeValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes any parsed JSON value (used to echo values back).
    public mutating func value(_ json: JSONValue) {
        switch json {
        case .null: null()
        case .bool(let flag): value(flag)
        case .number(let number):
            // The number's own text: a value read and written back (a section given to
            // `insert-section`, decoded through a document) keeps its digits.
            beforeValue()
            bytes.append(contentsOf: number.text.utf8)
        case .string(let string): value(string)
        case .array(let elements):
            beginArray()
            for element in elements { value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for member in members { self.member(member.key, member.value) }
            endObject()
        }
    }

    public mutating func member(_ name: String, _ string: String) {
        key(name)
        value(string)
    }

    public mutating func member(_ name: String, _ number: Double) {
        key(name)
        value(number)
    }

    public mutating func member(_ name: String, _ number: Int) {
        key(name)
        value(number)
    }

    public mutating func member(_ name: String, _ flag: Bool) {
        key(name)
        value(flag)
    }

    public mutating func member(_ name: String, _ json: JSONValue) {
        key(name)
        value(json)
    }

    /// Numbers: integral values without a fraction ("40", not "40.0"); others in Swift's shortest
    /// round-trip form. Non-finite values cannot be JSON and are written as null.
    private mutating func appendNumber(_ number: Double) {
        guard number.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if number == number.rounded(), abs(number) < 1e15 {
            appendInteger(Int64(number))
        } else {
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    /// Digits written directly: `String(number)` would allocate on every trace field.
    private mutating func appendInteger(_ number: Int64) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
