import MarqueeCore
import XCTest

@testable import MarqueeProtocol

/// `alert`, `alert-clear` and `display` as typed: the alert's JSON is the rest of the line (a `#`
/// in a field is kept), and wrong arguments are refused with the usage.
final class SignageCommandTests: XCTestCase {
    func parse(_ line: String) -> Result<Command, CommandError>? { CommandParser.parse(line) }

    func testAlertTakesTheRestOfTheLineAsJSON() {
        XCTAssertEqual(
            parse(#"alert {"template": "note", "fields": {"message": "Gate #4 closed"}}"#),
            .success(.alert(AlertMessage(template: "note", fields: ["message": "Gate #4 closed"]))))
        XCTAssertEqual(parse("alert-clear"), .success(.alertClear))
        XCTAssertEqual(parse("display off"), .success(.display(on: false)))
        XCTAssertEqual(parse("display on # morning"), .success(.display(on: true)))
    }

    func testWrongArgumentsAreRefused() {
        XCTAssertEqual(
            parse("alert"),
            .failure(CommandError(#"alert: missing the message JSON (usage: alert {"template":NAME,"fields":{...}})"#)))
        XCTAssertEqual(
            parse(#"alert {"fields": {}}"#),
            .failure(CommandError("alert: alert.template: missing (the name of one of the deck's templates)")))
        XCTAssertEqual(
            parse("alert-clear now"),
            .failure(CommandError("alert-clear: wrong number of arguments (usage: alert-clear)")))
        XCTAssertEqual(
            parse("display dim"), .failure(CommandError("display: expected on or off (usage: display on|off)")))
    }
}
