import MarqueeCore
import XCTest

/// The reader that decks stream through gives what the whole-buffer parse gives, however the
/// input is cut into reads: values, and errors with the same line and column.
final class JSONReaderTests: XCTestCase {
    /// A source handing out `bytes` a few at a time (sizes cycling through `pieces`).
    final class Trickle {
        let bytes: [UInt8]
        let pieces: [Int]
        var offset = 0
        var calls = 0

        init(_ bytes: [UInt8], pieces: [Int]) {
            self.bytes = bytes
            self.pieces = pieces
        }

        func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            let count = min(buffer.count, pieces[calls % pieces.count], bytes.count - offset)
            calls += 1
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
    }

    static func streamed(_ bytes: [UInt8], pieces: [Int]) -> Result<JSONValue, JSONParseError> {
        let trickle = Trickle(bytes, pieces: pieces)
        do throws(JSONParseError) {
            var reader = try JSONReader(source: { trickle.read($0) }, allowingByteOrderMark: true)
            let value = try reader.value()
            try reader.finish()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    static let documents: [String] = [
        #"{"a":[1,-2.5e2,true,false,null],"b":"x\"\u00e9\ud83d\ude00\n","c":{}}"#,
        "\u{FEFF}{\"bom\": \"then text\"}",
        "{\n  \"a\": tru\n}",
        "[1, 2,\n 3,, 4]",
        #"{"a": 1, "a": 2}"#,
        #"{"long": ""# + String(repeating: "abcdéf\\n", count: 3000) + #""}"#,
        #"{"number": 123456789.123456789e-3, "n2": -0, "bad": 1.}"#,
        "\"unterminated",
        "[\"\u{1}\"]",
        #"["\ud800"]"#,
        "{\"k\":\"ü\"} trailing",
        String(repeating: "[", count: 70) + String(repeating: "]", count: 70),
        #"{"ok": ["日本語", "עברית", {"deep": [[[]]]}]}"#,
        // An error far in, after many reads: its line and column count every newline and
        // character (not byte) before it.
        "[\n" + String(repeating: "\"é中 text\",\n  ", count: 400) + "\"last\" oops]",
        // Shorter than a byte order mark: the reader looks at the first three bytes for one, and
        // a document of one or two bytes once kept it waiting for them for ever.
        "", "1", "a", " ", "{}", "[]", "12", "ab", "{ }", "\u{FEFF}", "\u{FEFF}1", "\u{FEFF}{}",
    ]

    func testEveryCutGivesTheSameValueOrError() throws {
        for document in Self.documents {
            let bytes = Array(document.utf8)
            let whole: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in
                try JSONParser.parse(bytes, allowingByteOrderMark: true)
            }
            for pieces in [[1], [2, 3], [7], [5, 1, 64], [4096]] {
                let streamed = Self.streamed(bytes, pieces: pieces)
                switch (whole, streamed) {
                case (.success(let a), .success(let b)): XCTAssertEqual(a, b, "\(document.prefix(40)) in \(pieces)")
                case (.failure(let a), .failure(let b)): XCTAssertEqual(a, b, "\(document.prefix(40)) in \(pieces)")
                default: XCTFail("\(document.prefix(40)) in \(pieces): \(whole) against \(streamed)")
                }
            }
        }
    }

    func testAReadErrorIsNotTakenForTheEnd() {
        var served = false
        let result: Result<JSONValue, JSONParseError> = Result { () throws(JSONParseError) in
            var reader = try JSONReader(source: { buffer throws(JSONParseError) in
                guard !served else { throw JSONParseError(message: "the disk is gone", line: 0, column: 0) }
                served = true
                let text = Array(#"{"a": [1, 2"#.utf8)
                for (index, byte) in text.enumerated() { buffer[index] = byte }
                return text.count
            })
            return try reader.value()
        }
        guard case .failure(let error) = result else { return XCTFail("read as \(result)") }
        XCTAssertEqual(error.message, "the disk is gone")
    }

    /// Decks read a few bytes at a time decode as when read whole, problems included.
    func testDecksStreamAsTheyDecodeWhole() throws {
        let decks = [
            #"{"sections":[{"title":"A","id":"a","cards":[{"id":"x","title":"T","body":"B","height":90}]},{"cards":[{"id":"y"},{"id":"x"}]}]}"#,
            #"{"sections":[{"cards":[{"id":"a","template":"later"}]}],"templates":{"later":{"elements":[]}}}"#,
            #"{"sections":[{"cards":[{"id":"a","template":"never"},{"id":"b","template":"never"}]}],"templates":{}}"#,
            #"{"style":{"cardAlpha":3},"sections":[{"cards":[{"id":""},{"title":"no id"},{"id":"z","extra":1}]}],"odd":true}"#,
            #"[1,2]"#,
        ]
        for deck in decks {
            let bytes = Array(deck.utf8)
            let whole = Result { () throws(DeckError) in try DeckDecoder.decode(bytes: bytes) }
            let trickle = Trickle(bytes, pieces: [3, 1, 8])
            let streamed = Result { () throws(DeckError) in try DeckDecoder.decode(source: { trickle.read($0) }) }
            switch (whole, streamed) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, deck)
            case (.failure(let a), .failure(let b)): XCTAssertEqual(a, b, deck)
            default: XCTFail("\(deck): \(whole) against \(streamed)")
            }
        }
    }

    /// A string's bytes are checked as UTF-8 without making the `String` (card texts go straight
    /// into their stored bytes): the check accepts and refuses exactly what the standard
    /// library's does, on every short sequence around the edges of the encoding and on random
    /// bytes.
    func testStringBytesAreCheckedAsTheStandardLibraryChecksThem() {
        var sequences: [[UInt8]] = []
        let edges: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
            0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for a in edges {
            for b in edges {
                sequences.append([a, b])
                for c in edges { sequences.append([a, b, c, 0x80]) }
            }
        }
        var seed: UInt64 = 17
        for _ in 0..<2000 {
            let count = Int(seed % 12)
            sequences.append(
                (0..<count).map { _ in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return UInt8(truncatingIfNeeded: seed >> 56)
                })
        }
        for bytes in sequences {
            // Control bytes, quotes and backslashes are JSON's own business: kept out.
            let text = bytes.filter { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }
            let expected = String(validating: text, as: UTF8.self)
            let document = [0x22] + text + [0x22]
            let parsed = Result { () throws(JSONParseError) in try JSONParser.parse(document) }
            switch (expected, parsed) {
            case (let string?, .success(let value)): XCTAssertEqual(value, .string(string), "\(text)")
            case (nil, .failure(let error)): XCTAssertEqual(error.message, "invalid UTF-8 in a string", "\(text)")
            default: XCTFail("\(text): the standard library says \(String(describing: expected)), the reader \(parsed)")
            }
        }
    }

    /// A string's plain bytes are passed over sixteen at a time (SSE2 or NEON): whatever a
    /// string's length, and wherever in a block of sixteen its quote, an escape, a control byte or
    /// a byte that is not ASCII falls (before the first special byte of its block, after it, or in
    /// the last bytes of the input), it reads as a byte-at-a-time reader reads it.
    func testEveryPlaceInABlockOfSixteenIsRead() {
        for length in 0..<40 {
            let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
            for place in 0...length {
                func read(_ text: [UInt8]) -> Result<JSONValue, JSONParseError> {
                    let document = [UInt8(ascii: "[")] + [0x22] + text + [0x22] + [UInt8(ascii: "]")]
                    let whole = Result { () throws(JSONParseError) in try JSONParser.parse(document) }
                    if case .failure(let error) = whole {
                        XCTAssertEqual(Self.streamed(document, pieces: [7]), .failure(error))
                    }
                    return whole
                }
                let before = Array(plain[..<place])
                let after = Array(plain[place...])
                // A two-byte "é", then an invalid byte, at `place`.
                XCTAssertEqual(
                    read(before + [0xC3, 0xA9] + after),
                    .success(.array([.string(String(decoding: before + [0xC3, 0xA9] + after, as: UTF8.self))])))
                XCTAssertEqual(failure(read(before + [0xFF] + after)), "invalid UTF-8 in a string")
                // An escape at `place`, with an invalid byte before it in the same block, or after it.
                let escaped = before + [UInt8(ascii: "\\"), UInt8(ascii: "n")] + after
                XCTAssertEqual(
                    read(escaped), .success(.array([.string(String(decoding: before + [0x0A] + after, as: UTF8.self))]))
                )
                if place > 0 {
                    var invalid = escaped
                    invalid[place - 1] = 0xFF
                    XCTAssertEqual(failure(read(invalid)), "invalid UTF-8 in a string", "\(length) \(place)")
                }
                XCTAssertEqual(failure(read(escaped + [0xFF])), "invalid UTF-8 in a string")
                // A control byte at `place`, refused (with an invalid byte after it: the control
                // byte comes first).
                XCTAssertEqual(failure(read(before + [0x1F] + after)), "control character in a string (escape it)")
                XCTAssertEqual(
                    failure(read(before + [0x09, 0xFF] + after)), "control character in a string (escape it)")
                // A quote at `place` ends the string early: what follows is not JSON.
                XCTAssertNotNil(failure(read(before + [0x22, 0x7F] + after)))
            }
        }
    }

    private func failure(_ result: Result<JSONValue, JSONParseError>) -> String? {
        if case .failure(let error) = result { return error.message }
        return nil
    }
}
