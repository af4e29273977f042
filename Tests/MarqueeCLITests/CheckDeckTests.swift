import ArgumentParser
import Glibc
import XCTest

@testable import marquee

final class CheckDeckTests: XCTestCase {
    func write(_ text: String) -> String {
        let path = "/tmp/marquee-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        let file = fopen(path, "w")!
        fputs(text, file)
        fclose(file)
        return path
    }

    func testValidDeckPasses() throws {
        let path = write(#"{"sections": [{"title": "A", "cards": [{"id": "a", "title": "A"}]}]}"#)
        defer { unlink(path) }
        XCTAssertNoThrow(try CheckDeck.parse([path]).run())
    }

    func testProblemsFailWithExitCode1() throws {
        for text in [
            #"{"sections": [{"cards": [{"id": "a"}, {"id": "a"}]}]}"#,
            #"{"sections": [}"#,
            #"{"sections": [], "style": {"bodyFont": "No Such Family Anywhere"}}"#,
        ] {
            let path = write(text)
            defer { unlink(path) }
            XCTAssertThrowsError(try CheckDeck.parse([path]).run(), text) { error in
                XCTAssertEqual((error as? ExitCode)?.rawValue, 1)
            }
        }
        XCTAssertThrowsError(try CheckDeck.parse(["/nonexistent/deck.json"]).run())
    }
}

final class CheckDeckOutputTests: XCTestCase {
    func report(_ text: String) -> (output: [String], valid: Bool) {
        CheckDeck.report(Array(text.utf8), file: "d.json")
    }

    func testCountsHaveTheirPluralForms() {
        XCTAssertEqual(
            report(#"{"sections": [{"cards": [{"id": "a"}]}]}"#).output, ["d.json: ok (1 section, 1 card, list layout)"]
        )
        XCTAssertEqual(
            report(#"{"sections": [{"cards": [{"id": "a"}, {"id": "b"}]}, {}]}"#).output,
            ["d.json: ok (2 sections, 2 cards, list layout)"])
        XCTAssertEqual(
            report(#"{"sections": [{"cards": [{"id": "a"}, {"id": "a"}]}]}"#).output.last, "d.json: 1 problem found")
    }

    func testAThousandProblemsArePrintedInTwentyTwoLines() {
        let cards = (0..<1_001).map { _ in #"{"id": "same"}"# }.joined(separator: ",")
        let (output, valid) = report(#"{"sections": [{"cards": [\#(cards)]}]}"#)
        XCTAssertFalse(valid)
        XCTAssertEqual(output.count, 22)
        XCTAssertEqual(
            output[0], #"d.json: sections[0].cards[1].id: duplicate id "same" (first used at sections[0].cards[0])"#)
        XCTAssertEqual(output[20], "d.json: … and 980 more problems")
        XCTAssertEqual(output[21], "d.json: 1000 problems found")
    }
}
