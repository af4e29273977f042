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
}
