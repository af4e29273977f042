/// A problem found while parsing JSON text, with its 1-based line and column.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "line \(line), column \(column): \(message)" }

    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }
}

/// Parses a whole JSON document held in memory (a command line, a reply, a small deck) into a
/// `JSONValue`, with `JSONReader`'s rules: strict RFC 8259, bounded nesting, no duplicate member
/// names.
public enum JSONParser {
    public static let defaultMaximumDepth = JSONReader.defaultMaximumDepth

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
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(
                bytes: buffer, maximumDepth: maximumDepth, allowingByteOrderMark: allowingByteOrderMark)
            do throws(JSONParseError) {
                let value = try reader.value()
                try reader.finish()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
