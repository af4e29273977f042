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
