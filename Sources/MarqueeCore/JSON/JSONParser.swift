/// A problem found while parsing JSON text, with its 1-based line and column.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. Nesting is bounded (`maximumDepth`) so that a
/// hostile document cannot exhaust the stack.
public struct JSONParser {
    public static let defaultMaximumDepth = 64

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private let bytes: [UInt8]
    /// Where the text begins (after a byte order mark): lines and columns count from here.
    private var start = 0 {
        didSet { position = start }
    }
    private var position = 0
    private let maximumDepth: Int

    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError)
        -> JSONValue
    {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// With `allowingByteOrderMark`, a UTF-8 byte order mark (EF BB BF) at the very start is
    /// skipped, as RFC 8259 permits; anywhere else it is an error, as are other encodings' marks.
    public static func parse(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth, allowingByteOrderMark: Bool = false
    ) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        if allowingByteOrderMark, bytes.starts(with: byteOrderMark) { parser.start = byteOrderMark.count }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.position < bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private func error(_ message: String) -> JSONParseError {
        var line = 1
        var column = 1
        for byte in bytes[start..<max(start, min(position, bytes.count))] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(message: message, line: line, column: column)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: String, value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in literal.utf8 {
            guard current == expected else { throw error("invalid literal (expected \(literal))") }
            position += 1
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        // Objects in decks are small: a linear scan finds duplicates faster than hashing, and a
        // set takes over for large ones.
        var seenKeys: Set<String>?
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let keyStart = position
            let key = try parseString()
            if Self.isDuplicate(key, in: members, seen: &seenKeys) {
                position = keyStart
                throw error("duplicate member \"\(key)\"")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
            position += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            case nil: throw error("unexpected end of input inside an object")
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private static func isDuplicate(
        _ key: String, in members: [(key: String, value: JSONValue)], seen: inout Set<String>?
    )
        -> Bool
    {
        if members.count < 16 { return members.contains { $0.key == key } }
        if seen == nil { seen = Set(members.map(\.key)) }
        return !seen!.insert(key).inserted
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            case nil: throw error("unexpected end of input inside an array")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("invalid number")
        }
        if first == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        if current == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            position = start
            throw error("number out of range: \(text)")
        }
        return value
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    /// Strings are collected as UTF-8 bytes and validated once; the common case (no escapes) is
    /// one slice of the input.
    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { position += 1 }
        if current == UInt8(ascii: "\"") {
            guard let string = String(validating: bytes[start..<position], as: UTF8.self) else {
                throw error("invalid UTF-8 in a string")
            }
            position += 1
            return string
        }
        var utf8 = Array(bytes[start..<position])
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                position += 1
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw error("invalid UTF-8 in a string")
                }
                return string
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                position += 1
                let scalar = try parseEscape()
                utf8.append(contentsOf: UTF8.encode(scalar)!)
                continue
            }
            utf8.append(byte)
            position += 1
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in \\u escape") }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
            return scalar
        default: throw error("invalid escape '\\\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
