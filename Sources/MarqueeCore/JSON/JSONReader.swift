import CScan

/// A strict RFC 8259 reader over UTF-8 bytes that can pull its input a chunk at a time, so a deck
/// file of 150 MB is read through a window of about a megabyte instead of being held whole (and
/// parsed into a tree) before decoding: see docs/architecture.md, "Decoding decks in one pass".
///
/// It offers whole values (`value`, as `JSONParser` returns them) and, for the large parts of a
/// document, the members of an object and the elements of an array one at a time
/// (`beginObject`/`nextMember`, `beginArray`/`nextElement`), so a caller can decode and drop each
/// part as it comes. Nesting is bounded (`maximumDepth`) so that a hostile document cannot exhaust
/// the stack; duplicate member names are refused.
public struct JSONReader: ~Copyable {
    public static let defaultMaximumDepth = 64
    /// The window grows past this only for a single token (a string) longer than it.
    public static let chunkSize = 1 << 20

    /// Fills the buffer it is given with the next bytes and returns how many (0 at the end), or
    /// throws the reason it cannot read.
    public typealias Source = (UnsafeMutableRawBufferPointer) throws(JSONParseError) -> Int

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes `base[0..<end]` are read; `position` is the next to look at.
    private var end: Int
    private var position = 0
    private let source: Source?
    private let ownsBuffer: Bool
    private var sourceEnded: Bool
    /// The start of a token being read, kept in the window when it is refilled.
    private var tokenStart: Int?
    /// Where the last string's opening quote was, for errors about a member name.
    private var lastStringStart = 0
    /// Line and column (1-based, columns counting characters) of `base[0]`.
    private var lineAtBase = 1
    private var columnAtBase = 1
    private let maximumDepth: Int

    /// A reader over bytes in memory (not copied: they must outlive the reader).
    public init(
        bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth,
        allowingByteOrderMark: Bool = false
    ) {
        base = UnsafeMutablePointer(mutating: bytes.baseAddress ?? UnsafePointer(Self.emptyByte))
        capacity = bytes.count
        end = bytes.count
        source = nil
        ownsBuffer = false
        sourceEnded = true
        self.maximumDepth = maximumDepth
        if allowingByteOrderMark, bytes.starts(with: Self.byteOrderMark) { dropUncounted(Self.byteOrderMark.count) }
    }

    /// A reader that pulls its bytes from `source` a chunk at a time.
    public init(
        source: @escaping Source, maximumDepth: Int = defaultMaximumDepth, allowingByteOrderMark: Bool = false
    ) throws(JSONParseError) {
        capacity = Self.chunkSize
        base = .allocate(capacity: capacity)
        end = 0
        self.source = source
        ownsBuffer = true
        sourceEnded = false
        self.maximumDepth = maximumDepth
        // Reads until a byte order mark could be seen or the input ends: `refill` tells whether
        // there are bytes at `position`, which stays true after the end, so the loop asks
        // `sourceEnded` too (without it an input of one or two bytes looped for ever).
        while end < Self.byteOrderMark.count, !sourceEnded { try refill() }
        if allowingByteOrderMark, UnsafeBufferPointer(start: base, count: end).starts(with: Self.byteOrderMark) {
            dropUncounted(Self.byteOrderMark.count)
        }
    }

    deinit { if ownsBuffer { base.deallocate() } }

    nonisolated(unsafe) private static let emptyByte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    /// Skips a byte order mark: lines and columns count from after it, as an editor shows them.
    private mutating func dropUncounted(_ count: Int) {
        if ownsBuffer {
            base.update(from: base + count, count: end - count)
            end -= count
        } else {
            base += count
            end -= count
            capacity -= count
        }
    }

    // MARK: The window

    /// The byte at `position`, reading more input when the window is used up; nil at the end.
    @inline(__always)
    private var current: UInt8? {
        mutating get {
            if position < end { return base[position] }
            return (try? refill()) == true ? base[position] : nil
        }
    }

    /// Reads more bytes after `end`, first moving what must be kept (from the token being read,
    /// else from `position`) to the front and growing the window when a token fills it. Returns
    /// whether there are bytes at `position`. Read errors are kept and thrown by `check`.
    @discardableResult
    private mutating func refill() throws(JSONParseError) -> Bool {
        guard let source, !sourceEnded else { return position < end }
        let keep = min(tokenStart ?? position, position)
        if keep > 0 {
            advanceLineAndColumn(over: keep)
            base.update(from: base + keep, count: end - keep)
            end -= keep
            position -= keep
            if let start = tokenStart { tokenStart = start - keep }
        }
        if end == capacity {
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            larger.update(from: base, count: end)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        do {
            let count = try source(UnsafeMutableRawBufferPointer(start: base + end, count: capacity - end))
            if count <= 0 { sourceEnded = true } else { end += count }
        } catch {
            sourceEnded = true
            readError = error
        }
        return position < end
    }

    /// The first read error, thrown at the next check instead of being taken for the end of input.
    private var readError: JSONParseError?

    private mutating func advanceLineAndColumn(over count: Int) {
        // One pass, eight bytes at a time: newlines counted, characters (bytes that do not
        // continue a UTF-8 sequence) counted since the last one.
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let xored = word ^ (Self.ones &* 0x0A)
            // A newline's byte is zero after the xor: exactly those bytes keep their high bit here.
            let newlines = ~(((xored & low) &+ low) | xored | low)
            if newlines == 0 {
                columnAtBase += 8 - (word & ~(word << 1) & Self.highs).nonzeroBitCount
            } else {
                lineAtBase += newlines.nonzeroBitCount
                // Bytes after the word's last newline (little-endian: the highest one set).
                let last = (63 - newlines.leadingZeroBitCount) / 8
                columnAtBase = 1
                for byte in UnsafeBufferPointer(start: base + index + last + 1, count: 7 - last)
                where byte & 0xC0 != 0x80 {
                    columnAtBase += 1
                }
            }
            index += 8
        }
        for byte in UnsafeBufferPointer(start: base + index, count: count - index) {
            if byte == UInt8(ascii: "\n") {
                lineAtBase += 1
                columnAtBase = 1
            } else if byte & 0xC0 != 0x80 {
                columnAtBase += 1
            }
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// An error at the current position, with its line and column.
    public func error(_ message: String) -> JSONParseError {
        if let readError { return readError }
        var line = lineAtBase
        var column = columnAtBase
        for index in 0..<min(position, end) {
            let byte = base[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(message: message, line: line, column: column)
    }

    public mutating func skipWhitespace() {
        while true {
            while position < end {
                let byte = base[position]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                position += 1
            }
            guard (try? refill()) == true else { return }
        }
    }

    /// The next byte after whitespace, without taking it; nil at the end of input.
    public mutating func peek() -> UInt8? {
        skipWhitespace()
        return current
    }

    /// After the document's value: only whitespace may follow.
    public mutating func finish() throws(JSONParseError) {
        skipWhitespace()
        if current != nil { throw error("unexpected text after the JSON value") }
        if let readError { throw readError }
    }

    // MARK: Objects and arrays one part at a time

    /// Takes the `{` of an object at `depth` (1 for the document's own value).
    public mutating func beginObject(depth: Int) throws(JSONParseError) {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { throw error("expected an object") }
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        position += 1
    }

    /// The next member's name (its value is next), or nil after the closing `}`. `names` holds
    /// the names seen so far in this object, to refuse duplicates.
    public mutating func nextMember(names: inout [String]) throws(JSONParseError) -> String? {
        let key = try nextMember(first: names.isEmpty) { names.contains($0) }
        if let key { names.append(key) }
        return key
    }

    /// The next member's name, or nil after the closing `}`; `isDuplicate` says whether a name was
    /// seen before in this object (an error). `first` is true for the object's first member.
    public mutating func nextMember(first: Bool, isDuplicate: (String) -> Bool) throws(JSONParseError) -> String? {
        try nextMember(first: first, name: { String(decoding: $0, as: UTF8.self) }, isDuplicate: isDuplicate)
    }

    /// The next member's name as `name` makes it of the name's UTF-8 bytes (a decoder that knows
    /// the names it expects need not make a `String` of each), or nil after the closing `}`.
    public mutating func nextMember<Name>(
        first: Bool, name: (UnsafeBufferPointer<UInt8>) -> Name, isDuplicate: (Name) -> Bool
    ) throws(JSONParseError) -> Name? {
        skipWhitespace()
        if first {
            if current == UInt8(ascii: "}") {
                position += 1
                return nil
            }
        } else {
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                return nil
            case nil: throw error("unexpected end of input inside an object")
            default: throw error("expected ',' or '}' in an object")
            }
        }
        guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
        let key = try withStringBytes(name)
        if isDuplicate(key) {
            // The name is read again as text for the message (it is still in the window).
            position = lastStringStart
            let text = try string()
            position = lastStringStart
            throw error("duplicate member \"\(text)\"")
        }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
        position += 1
        skipWhitespace()
        return key
    }

    /// Takes the `[` of an array at `depth`.
    public mutating func beginArray(depth: Int) throws(JSONParseError) {
        skipWhitespace()
        guard current == UInt8(ascii: "[") else { throw error("expected an array") }
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
        position += 1
    }

    /// Whether another element follows (it is next); false after the closing `]`. `index` is the
    /// number of elements already read.
    public mutating func nextElement(index: Int) throws(JSONParseError) -> Bool {
        skipWhitespace()
        if index == 0 {
            if current == UInt8(ascii: "]") {
                position += 1
                return false
            }
            return true
        }
        switch current {
        case UInt8(ascii: ","):
            position += 1
            skipWhitespace()
            return true
        case UInt8(ascii: "]"):
            position += 1
            return false
        case nil: throw error("unexpected end of input inside an array")
        default: throw error("expected ',' or ']' in an array")
        }
    }

    // MARK: Whole values

    /// The next value, whole; `depth` is the depth of the object or array holding it (0 for the
    /// document's value).
    public mutating func value(depth: Int = 0) throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", value: .bool(true))
        case UInt8(ascii: "f"): return try literal("false", value: .bool(false))
        case UInt8(ascii: "n"): return try literal("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character '\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func literal(_ literal: String, value: JSONValue) throws(JSONParseError) -> JSONValue {
        for expected in literal.utf8 {
            guard current == expected else { throw error("invalid literal (expected \(literal))") }
            position += 1
        }
        return value
    }

    /// A whole object, read with the same member steps a caller of `nextMember` takes.
    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        try beginObject(depth: depth)
        var members: [(key: String, value: JSONValue)] = []
        // Objects in decks are small: a linear scan finds duplicates faster than hashing, and a
        // set takes over for large ones.
        var seenKeys: Set<String>?
        while let key = try nextMember(
            first: members.isEmpty, isDuplicate: { Self.isDuplicate($0, in: members, seen: &seenKeys) })
        {
            members.append((key, try value(depth: depth)))
        }
        return .object(members)
    }

    private static func isDuplicate(
        _ key: String, in members: [(key: String, value: JSONValue)], seen: inout Set<String>?
    ) -> Bool {
        if members.count < 16 { return members.contains { $0.key == key } }
        if seen == nil { seen = Set(members.map(\.key)) }
        return !seen!.insert(key).inserted
    }

    /// A whole array, read with the same element steps a caller of `nextElement` takes.
    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        try beginArray(depth: depth)
        var elements: [JSONValue] = []
        while try nextElement(index: elements.count) { elements.append(try value(depth: depth)) }
        return .array(elements)
    }

    private mutating func number() throws(JSONParseError) -> JSONNumber {
        tokenStart = position
        defer { tokenStart = nil }
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
        let start = tokenStart!
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            position = start
            throw error("number out of range: \(MessageText.clipped(text))")
        }
        return JSONNumber(value: value, text: text)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        var count = 0
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            position += 1
            count += 1
        }
        return count
    }

    /// A string value (at its opening quote).
    public mutating func string() throws(JSONParseError) -> String {
        try withStringBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads a string value (at its opening quote) and calls `body` with its UTF-8 bytes, checked
    /// to be valid, without making a `String`: a deck's card texts go straight into the card's
    /// stored bytes. The common case (no escapes) is one slice of the window; the bytes are only
    /// valid during `body`.
    public mutating func withStringBytes<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(JSONParseError) -> Result {
        // The opening quote is kept in the window with the text, so an error can point at it.
        tokenStart = position
        position += 1
        defer {
            lastStringStart = tokenStart ?? position
            tokenStart = nil
        }
        // Whether every byte so far is ASCII (then the text needs no UTF-8 check).
        var highBits: UInt64 = 0
        while true {
            skipPlainBytes(highBits: &highBits)
            if position < end { break }
            if !(try refill()) { break }
        }
        let start = tokenStart! + 1
        if position < end, base[position] == UInt8(ascii: "\"") {
            let bytes = UnsafeBufferPointer(start: UnsafePointer(base + start), count: position - start)
            if highBits & 0x8080_8080_8080_8080 != 0, !Self.isValidUTF8(bytes) {
                throw error("invalid UTF-8 in a string")
            }
            position += 1
            return body(bytes)
        }
        // A string with escapes is put together in `unescaped`, kept from string to string.
        var utf8 = unescaped
        unescaped = []
        utf8.removeAll(keepingCapacity: true)
        // (A huge one's buffer is let go rather than kept for the rest of the document.)
        defer { if utf8.capacity <= 1 << 16 { unescaped = utf8 } }
        utf8.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                position += 1
                let valid = utf8.withUnsafeBufferPointer {
                    highBits & 0x8080_8080_8080_8080 == 0 || Self.isValidUTF8($0)
                }
                guard valid else { throw error("invalid UTF-8 in a string") }
                return utf8.withUnsafeBufferPointer(body)
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                position += 1
                let scalar = try escape()
                if scalar.value >= 0x80 { highBits |= 0x80 }
                if scalar.isASCII {
                    utf8.append(UInt8(scalar.value))
                } else {
                    utf8.append(contentsOf: UTF8.encode(scalar)!)
                }
                continue
            }
            // The plain bytes up to the next quote, backslash or control byte, in one piece.
            let run = position
            skipPlainBytes(highBits: &highBits)
            utf8.append(contentsOf: UnsafeBufferPointer(start: base + run, count: position - run))
        }
    }

    /// The bytes of the last string read that had escapes (its buffer is reused).
    private var unescaped: [UInt8] = []

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), as `String(validating:)` decides, without making the string.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The allowed range of the second byte depends on the first (Unicode's table 3-7).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// Moves `position` over the window's bytes up to the next quote, backslash or control byte,
    /// or to the window's end; ORs the bytes into `highBits` (whose high bits then say whether any
    /// was not ASCII). Sixteen bytes at a time with SSE2 or NEON (`marquee_scan_string`, in C:
    /// Swift's `SIMD16` compares were not made vector instructions and took 6.6 times as long as
    /// the eight-byte word loop this replaces).
    @inline(__always)
    private mutating func skipPlainBytes(highBits: inout UInt64) {
        var high: UInt8 = 0
        position += marquee_scan_string(base + position, base + end, &high)
        highBits |= UInt64(high)
    }

    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
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
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\") else { throw error("unpaired surrogate in \\u escape") }
                position += 1
                guard current == UInt8(ascii: "u") else { throw error("unpaired surrogate in \\u escape") }
                position += 1
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate in \\u escape") }
            return scalar
        default: throw error("invalid escape '\\\(Unicode.Scalar(byte))'")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
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
