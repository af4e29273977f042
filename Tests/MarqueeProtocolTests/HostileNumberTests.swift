import MarqueeCore
import MarqueeProtocol
import XCTest

/// Numbers at and past the limits of Int and Double in every argument slot: each line is parsed
/// into a command or an error, never a trap, and input quoted back stays short.
final class HostileNumberTests: XCTestCase {
    static let extremes = [
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "9223372036854775806", "-9223372036854775807", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "0", "-0", "+0", "-0.0", "1e308", "-1e308", "1e309", "1e-320", "NaN", "nan",
        "-nan", "inf", "-inf", "Infinity", "-Infinity", String(repeating: "9", count: 400), "0x10", "1_000",
    ]

    /// Every command, with `N` where a number goes.
    static let templates = [
        "scroll-to N", "scroll-to N:N", "scroll-to section:N", "scroll-to N%", "scroll-to offset:N",
        "scroll-to end duration=N", "scroll-to end curve=cubic-bezier(N,N,N,N)", "scroll-by N", "scroll-by Npx",
        "scroll-by N duration=N", "wait N", "delete N", "delete N:N", "move N N", "move N:N N:N", "move N id:c1",
        "insert N {\"id\": \"z\"}", "insert N:N {\"id\": \"z\"}", "update N {\"title\": \"t\"}",
        "update N:N {\"height\": N}", "insert 0 {\"id\": \"z\", \"height\": N}", "insert-section N {\"cards\": []}",
        "delete-section N", "appear stagger=N duration=N",
    ]

    func parse(_ line: String) -> Result<Command, CommandError>? { CommandParser.parse(line) }

    func testEveryExtremeInEverySlotParsesOrIsAnError() {
        for template in Self.templates {
            for value in Self.extremes {
                let line = template.replacingOccurrences(of: "N", with: value)
                switch parse(line) {
                case .none: XCTFail("no reply for \(line)")
                case .failure(let error): XCTAssertLessThan(error.message.utf8.count, 600, line)
                case .success: break
                }
            }
        }
    }

    /// Numbers in commands are decimal everywhere: hexadecimal (`0x1p2` is 4 to `Double`), `_`,
    /// NaN and the infinities are refused in every slot that takes a fraction, as `scroll-by 0x10`
    /// always was; decimal forms (a sign, a point at either end, an exponent) are taken.
    func testNumbersAreDecimalInEverySlot() {
        let slots = [
            "wait N", "scroll-to offset:N", "scroll-to N%", "scroll-to end duration=N", "scroll-by Npx",
            "scroll-by 1 duration=N", "appear stagger=N", "appear duration=N", "play ticker speed=N",
            "play cards N", "play pages dwell=N", "scroll-to end curve=cubic-bezier(N,0,1,1)",
        ]
        for slot in slots {
            for value in ["0x1p2", "0x10", "0X4", "1_0", "nan", "inf", "infinity", ".", "e3", "1e", "--4", "4x"] {
                let line = slot.replacingOccurrences(of: "N", with: value)
                XCTAssertNotNil(errorMessage(line), "\(line) is taken")
            }
            // Each decimal form parses as its plain equivalent does (to the same command, or to
            // an error of the slot's range).
            for (value, plain) in [("+1", "1"), (".5", "0.5"), ("2.", "2"), ("1e0", "1"), ("1E-1", "0.1"), ("-0", "0")]
            {
                let line = slot.replacingOccurrences(of: "N", with: value)
                switch (parse(line), parse(slot.replacingOccurrences(of: "N", with: plain))) {
                case (.success(let command)?, .success(let expected)?): XCTAssertEqual(command, expected, line)
                case (.failure?, .failure?): break
                case (let got, let expected):
                    XCTFail("\(line): \(String(describing: got)), not as \(plain): \(String(describing: expected))")
                }
            }
        }
        XCTAssertEqual(
            errorMessage("wait 0x1p2"), #"wait: "0x1p2" is not a number of seconds from 0 to 86400"#)
        guard case .success(.wait(.seconds(let seconds))) = parse("wait .5") else { return XCTFail("wait .5") }
        XCTAssertEqual(seconds, 0.5)
    }

    func testScrollByTheSmallestIntIsAnError() {
        // abs(Int.min) traps: this line used to end the renderer with SIGILL.
        XCTAssertEqual(
            errorMessage("scroll-by -9223372036854775808"),
            "scroll-by: -9223372036854775808 rows is out of range (-1000000000 to 1000000000)")
        XCTAssertNotNil(errorMessage("scroll-by 9223372036854775807"))
        XCTAssertNotNil(errorMessage("scroll-by -9223372036854775809"))
        XCTAssertNotNil(errorMessage("scroll-by 1000000001"))
        XCTAssertEqual(try parse("scroll-by -1000000000")?.get(), .scrollBy(.rows(-1_000_000_000), ScrollOptions()))
    }

    func testNegativeZeroAndTinyNumbersAreOrdinary() throws {
        XCTAssertEqual(try parse("wait -0")?.get(), .wait(.seconds(0)))
        XCTAssertEqual(try parse("scroll-to -0%")?.get(), .scrollTo(.percent(0), ScrollOptions()))
        XCTAssertEqual(try parse("delete -0")?.get(), .delete(.index(0)), "Int(\"-0\") is 0")
        XCTAssertNotNil(try parse("scroll-by 1e-320px")?.get())
    }

    func testEveryCardAddressFormForEveryCommand() throws {
        let card = Card(id: "z")
        XCTAssertEqual(try parse(#"insert 3 {"id": "z"}"#)?.get(), .insert(.index(3), card))
        XCTAssertEqual(try parse(#"insert 1:2 {"id": "z"}"#)?.get(), .insert(.sectionItem(section: 1, item: 2), card))
        XCTAssertEqual(try parse(#"insert id:c4 {"id": "z"}"#)?.get(), .insert(.id("c4"), card))
        XCTAssertEqual(try parse("delete 3")?.get(), .delete(.index(3)))
        XCTAssertEqual(try parse("delete 1:2")?.get(), .delete(.sectionItem(section: 1, item: 2)))
        XCTAssertEqual(try parse("delete id:c4")?.get(), .delete(.id("c4")))
        let update = CardPatch(title: "t")
        XCTAssertEqual(try parse(#"update 3 {"title": "t"}"#)?.get(), .update(.index(3), update))
        XCTAssertEqual(
            try parse(#"update 1:2 {"title": "t"}"#)?.get(), .update(.sectionItem(section: 1, item: 2), update))
        XCTAssertEqual(try parse(#"update id:c4 {"title": "t"}"#)?.get(), .update(.id("c4"), update))
        XCTAssertEqual(try parse("move 3 0")?.get(), .move(.index(3), to: .index(0)))
        XCTAssertEqual(
            try parse("move 1:2 2:0")?.get(),
            .move(.sectionItem(section: 1, item: 2), to: .sectionItem(section: 2, item: 0)))
        XCTAssertEqual(try parse("move id:c4 id:c0")?.get(), .move(.id("c4"), to: .id("c0")))
        XCTAssertEqual(try parse("scroll-to section:2")?.get(), .scrollTo(.section(2), ScrollOptions()))
        for line in [
            "delete id:", "move 1:x 0", "move 0 -1", "move 0", "delete 1:2:3", "scroll-to section:-1",
            "scroll-to section:",
        ] {
            XCTAssertNotNil(errorMessage(line), line)
        }
        XCTAssertEqual(
            errorMessage("move 0 x"),
            "move: \"x\" is not a card (a card index, S:I or id:ID; usage: move FROM TO (each INDEX, S:I or id:ID))")
    }

    func testInputQuotedBackIsCut() {
        let word = String(repeating: "w", count: 60_000)
        for line in [
            word, "scroll-to \(word)", "delete \(word)", "scroll-to end curve=\(word)", "wait \(word)",
            "appear \(word)",
        ] {
            let message = errorMessage(line) ?? ""
            XCTAssertLessThan(message.count, 400, String(line.prefix(20)))
            XCTAssertTrue(message.contains(String(repeating: "w", count: 64) + "…\""), message)
        }
    }

    func testAnErrorReplyIsBoundedWhateverItsMessage() throws {
        var writer = JSONWriter()
        let message = "load: " + String(repeating: "p", count: 100_000) + ": No such file or directory"
        Messages.error(seq: 1, message: message, into: &writer)
        let reply = writer.string
        XCTAssertLessThanOrEqual(reply.utf8.count, Messages.maximumErrorBytes + 100)
        let error = try XCTUnwrap(JSONParser.parse(reply)["error"])
        guard case .string(let text) = error else { return XCTFail("no error string") }
        XCTAssertTrue(text.hasPrefix("load: ppp"), "the start says what failed")
        XCTAssertTrue(text.hasSuffix("pp: No such file or directory"), "the end says why")
        writer.reset()
        Messages.error(seq: 2, message: "short", into: &writer)
        XCTAssertEqual(writer.string, #"{"seq":2,"ok":false,"error":"short"}"#)
    }

    func errorMessage(_ line: String) -> String? {
        guard case .failure(let error) = parse(line) else { return nil }
        return error.message
    }
}
