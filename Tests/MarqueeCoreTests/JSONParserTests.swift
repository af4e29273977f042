import MarqueeCore
import XCTest

final class JSONParserTests: XCTestCase {
    func testParsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2.5e2,true,false,null],"b":"x\"\u00e9\ud83d\ude00\n","c":{}}"#)
        XCTAssertEqual(value["a"], .array([.number(1), .number(-250), .bool(true), .bool(false), .null]))
        XCTAssertEqual(value["b"], .string("x\"é😀\n"))
        XCTAssertEqual(value["c"], .object([]))
    }

    func testReportsLineAndColumn() {
        XCTAssertThrowsError(try JSONParser.parse("{\n  \"a\": tru\n}")) { error in
            let error = error as! JSONParseError
            XCTAssertEqual(error.line, 2)
            XCTAssertTrue(error.message.contains("true"))
        }
    }

    func testRejectsWhatJSONForbids() {
        for text in [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "\"\u{1}\"", "{\"a\":1,\"a\":2}", "[1] x", "\"\\ud800\"",
            "1e999",
        ] {
            XCTAssertThrowsError(try JSONParser.parse(text), "accepted \(text.debugDescription)")
        }
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xFF, 0x22]), "invalid UTF-8")
    }

    /// A number too large for a Double is quoted cut, as every other value in a problem is: a deck
    /// of one 100,000-digit number printed a 100,071-character line.
    func testANumberOutOfRangeIsQuotedCut() {
        let digits = "1" + String(repeating: "0", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse("{\"cardHeight\": \(digits)}")) {
            let message = "\($0)"
            XCTAssertTrue(message.contains("number out of range: 1000"), message)
            XCTAssertLessThan(message.count, 200)
        }
    }

    func testNestingIsBounded() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { XCTAssertTrue("\($0)".contains("nesting")) }
        XCTAssertNoThrow(try JSONParser.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)))
    }

    func testWriterRoundTrips() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("n", 40.0)
        writer.member("f", -12.5)
        writer.member("s", "q\"\\\n\u{1}")
        writer.key("a")
        writer.beginArray()
        writer.value(0)
        writer.value(0.53)
        writer.endArray()
        writer.endObject()
        XCTAssertEqual(writer.string, #"{"n":40,"f":-12.5,"s":"q\"\\\n\u0001","a":[0,0.53]}"#)
        XCTAssertEqual(try JSONParser.parse(writer.string)["s"], .string("q\"\\\n\u{1}"))
    }
}
