import MarqueeCore
import MarqueeProtocol
import XCTest

final class CommandParserTests: XCTestCase {
    func parse(_ text: String) -> Result<Command, CommandError>? { CommandParser.parse(text) }

    func command(_ text: String) throws -> Command { try XCTUnwrap(parse(text)).get() }

    func error(_ text: String) -> String? {
        guard case .failure(let error) = parse(text) else { return nil }
        return error.message
    }

    func testEveryTargetForm() throws {
        XCTAssertEqual(try command("scroll-to 57"), .scrollTo(.card(57), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to 2:7"), .scrollTo(.sectionItem(section: 2, item: 7), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to id:dep-4"), .scrollTo(.cardID("dep-4"), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to start"), .scrollTo(.start, ScrollOptions()))
        XCTAssertEqual(try command("scroll-to end"), .scrollTo(.end, ScrollOptions()))
        XCTAssertEqual(try command("scroll-to 37.5%"), .scrollTo(.percent(37.5), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to offset:1200.5"), .scrollTo(.offset(1200.5), ScrollOptions()))
        XCTAssertEqual(
            try command("scroll-to end duration=2 curve=ease-out"),
            .scrollTo(.end, ScrollOptions(duration: 2, curve: .easeOut)))
    }

    func testAbsurdNumbersAreRefused() {
        for line in [
            "scroll-to -1", "scroll-to 1e308", "scroll-to nan", "scroll-to 150%", "scroll-to -5%",
            "scroll-to offset:-3",
            "scroll-to offset:inf", "scroll-to end duration=nan", "scroll-to end duration=-1",
            "scroll-to end duration=1e308",
            "wait inf", "wait -1", "scroll-by 1e300px", "scroll-by 2.5", "scroll-to 1:-1",
            "scroll-to 99999999999999999999999",
        ] {
            XCTAssertNotNil(error(line), "accepted: \(line)")
        }
    }

    /// A whole number is read alike in every slot that takes one: `1e1` and `10.0` are 10 in a card
    /// index, `S:I`, `section:S`, a section index and `scroll-by` rows as in `play cards N`; a
    /// fraction, hexadecimal or a value past 2^53 is refused everywhere.
    func testWholeNumbersInDecimalFormAreTakenInEverySlot() throws {
        XCTAssertEqual(try command("scroll-by 1e1"), try command("scroll-by 10"))
        XCTAssertEqual(try command("scroll-by 2.0"), .scrollBy(.rows(2), ScrollOptions()))
        XCTAssertEqual(try command("scroll-by -3E0"), .scrollBy(.rows(-3), ScrollOptions()))
        XCTAssertEqual(try command("play cards 2.0"), try command("play cards 2"))
        XCTAssertEqual(try command("scroll-to 1e1"), .scrollTo(.card(10), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to 2.0:7e0"), .scrollTo(.sectionItem(section: 2, item: 7), ScrollOptions()))
        XCTAssertEqual(try command("scroll-to section:1.0"), try command("scroll-to section:1"))
        XCTAssertEqual(try command("delete 4.0"), .delete(.index(4)))
        XCTAssertEqual(try command("delete-section 1e0"), .deleteSection(1))
        XCTAssertEqual(
            try command(#"insert-section 0.0 {"cards": []}"#), try command(#"insert-section 0 {"cards": []}"#))
        for line in [
            "scroll-by 2.5", "scroll-by 0x10", "scroll-by 1e20", "delete 1.5", "delete 1e-1", "scroll-to 2:0.5",
            "delete-section 0x1", "play cards 2.5", "scroll-to 1e16",
        ] {
            XCTAssertNotNil(error(line), "accepted: \(line)")
        }
    }

    /// An id with a space cannot be named (the id ends at the first space): the JSON error after
    /// an `id:` word says so, and only there; valid lines are read as before.
    func testTextAfterAnIDThatIsNotJSONSaysIDsAreOneWord() throws {
        XCTAssertEqual(
            error(#"update id:gate 4 {"body": "x"}"#),
            #"update: the card is not valid JSON: line 1, column 3: unexpected text after the JSON value; a card id is one word: id:gate names "gate""#
        )
        XCTAssertEqual(
            error(#"replace id:gate 4 {"id": "gate 4"}"#),
            #"replace: the card is not valid JSON: line 1, column 3: unexpected text after the JSON value; a card id is one word: id:gate names "gate""#
        )
        XCTAssertEqual(
            error(#"update id:gate {"body": "#),
            "update: the card is not valid JSON: line 1, column 10: unexpected end of input")
        XCTAssertEqual(
            error(#"update 3 4 {"body": "x"}"#),
            "update: the card is not valid JSON: line 1, column 3: unexpected text after the JSON value")
        XCTAssertEqual(
            try command(#"update id:gate-4 {"body": "x"}"#), .update(.id("gate-4"), CardPatch(body: "x")))
    }

    /// Every bound of `cubic-bezier` is in the error, the y bound too: `(0,100,1,1)` is taken and
    /// `(0,1001,1,1)` refused, and the message says why.
    func testACubicBezierOutOfBoundsIsRefusedNamingEveryBound() throws {
        let hint =
            "(use linear, ease-in, ease-out, ease-in-out or cubic-bezier(x1,y1,x2,y2) with x1, x2 in [0, 1] and y1, y2 in [-100, 100])"
        for curve in ["cubic-bezier(0,100,1,1)", "cubic-bezier(0,-100,1,100)", "cubic-bezier(1,0.5,0,-2)"] {
            XCTAssertNoThrow(try command("scroll-to end curve=\(curve)"), curve)
        }
        for curve in ["cubic-bezier(0,1001,1,1)", "cubic-bezier(0,0,1,-100.5)", "cubic-bezier(1.5,0,0,1)"] {
            XCTAssertEqual(error("scroll-to end curve=\(curve)"), "scroll-to: unknown curve \"\(curve)\" \(hint)")
            XCTAssertEqual(error("play pages curve=\(curve)"), "play pages: unknown curve \"\(curve)\" \(hint)")
        }
    }

    func testErrorsSayWhatToDo() {
        XCTAssertEqual(
            error("scroll-to"), "scroll-to: missing a target (usage: scroll-to TARGET [duration=S] [curve=NAME])")
        XCTAssertTrue(error("scroll-to end speed=3")!.contains("unknown option \"speed=3\""))
        XCTAssertTrue(error("scroll-to end curve=bounce")!.contains("unknown curve \"bounce\""))
        XCTAssertTrue(error("snapshot /tmp/a.jpg")!.contains("must end in .png"))
        XCTAssertTrue(error("quit now")!.contains("wrong number of arguments"))
        XCTAssertTrue(error("wait")!.contains("usage: wait SECONDS | wait idle"))
    }

    func testMessagesAreJSONLines() throws {
        var writer = JSONWriter()
        Messages.ok(seq: 3, into: &writer)
        XCTAssertEqual(writer.string, #"{"seq":3,"ok":true}"#)
        writer.reset()
        Messages.error(seq: 4, message: "bad \"x\"", into: &writer)
        XCTAssertEqual(writer.string, #"{"seq":4,"ok":false,"error":"bad \"x\""}"#)
        writer.reset()
        Messages.scrollFinished(
            ScrollFinished(tag: 1, offset: 5321.5, interrupted: false), presented: 1234.5, into: &writer)
        XCTAssertEqual(
            writer.string,
            #"{"event":"scroll-finished","seq":1,"offset":5321.5,"interrupted":false,"presented":1234.5}"#)
        writer.reset()
        Messages.scrollFinished(ScrollFinished(tag: 2, offset: 0, interrupted: true), presented: nil, into: &writer)
        XCTAssertEqual(
            writer.string, #"{"event":"scroll-finished","seq":2,"offset":0,"interrupted":true,"presented":null}"#)
        writer.reset()
        Messages.finished("batch-finished", seq: 5, presented: 2.25, into: &writer)
        XCTAssertEqual(writer.string, #"{"event":"batch-finished","seq":5,"presented":2.25}"#)
    }
}

/// `play`, `pause`, `resume`, `stop` (docs/protocol.md, "Playback").
final class PlaybackCommandParserTests: XCTestCase {
    func command(_ text: String) throws -> Command { try XCTUnwrap(CommandParser.parse(text)).get() }

    func testEveryFormAndOption() throws {
        XCTAssertEqual(try command("play pages"), .play(PlaybackSettings(mode: .pages)))
        XCTAssertEqual(
            try command("play pages dwell=10 duration=1.5 curve=cubic-bezier(0.2, 0, 0.2, 1) wrap=loop"),
            .play(
                PlaybackSettings(
                    mode: .pages, dwell: 10, duration: 1.5, curve: TimingCurve(name: "cubic-bezier(0.2,0,0.2,1)"),
                    wrap: .loop)))
        XCTAssertEqual(try command("play cards 3 dwell=0"), .play(PlaybackSettings(mode: .cards(3), dwell: 0)))
        XCTAssertEqual(try command("play ticker speed=120"), .play(PlaybackSettings(mode: .ticker, speed: 120)))
        XCTAssertEqual(try command("pause"), .pause)
        XCTAssertEqual(try command("resume"), .resume)
        XCTAssertEqual(try command("stop   # a comment"), .stop)
    }

    func testMistakesAreRefusedWithWhy() {
        func error(_ text: String) -> String? {
            guard case .failure(let error) = CommandParser.parse(text) else { return nil }
            return error.message
        }
        XCTAssertEqual(
            error("play"),
            "play: missing what to play (pages, cards N or ticker) (usage: \(CommandParser.playUsage))")
        XCTAssertEqual(error("play cards"), "play: missing a number of cards (usage: \(CommandParser.playUsage))")
        XCTAssertEqual(
            error("play ticker wrap=loop")?.hasPrefix(
                "play ticker: unknown option \"wrap=loop\" (play ticker takes speed;"), true)
        XCTAssertEqual(error("play pages speed=80")?.hasPrefix("play pages: unknown option \"speed=80\""), true)
        XCTAssertEqual(error("play pages fast")?.hasPrefix("play pages: unknown option \"fast\""), true)
        XCTAssertEqual(
            error("play ticker speed=1e400"),
            "play ticker: speed=\"1e400\" is not a speed in px/s above 0 and at most 100000")
        XCTAssertEqual(error("resume now"), "resume: wrong number of arguments (usage: resume)")
        XCTAssertEqual(error("stop 1"), "stop: wrong number of arguments (usage: stop)")
    }
}
