import ArgumentParser
import Glibc
import MarqueeRuntime
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

    /// Files of 0 to 3 bytes get their own problem, read through the file path that `check-deck`,
    /// `run --deck`, `load` and `--watch` share (one and two bytes once spun for ever).
    func testFilesOfAFewBytesGetTheirProblemInsteadOfHanging() throws {
        let missing = #"sections: missing (a deck needs a "sections" array, which may be empty)"#
        let cases = [
            ("", "not valid JSON: line 1, column 1: unexpected end of input"),
            ("1", "(document): expected an object, found a number"),
            ("a", "not valid JSON: line 1, column 1: unexpected character 'a'"),
            ("{}", missing), ("[]", "(document): expected an object, found an array"),
            ("ab", "not valid JSON: line 1, column 1: unexpected character 'a'"),
            ("12", "(document): expected an object, found a number"), ("{ }", missing),
        ]
        for (text, problem) in cases {
            let path = write(text)
            defer { unlink(path) }
            let outcome = LockedBox<(output: [String], valid: Bool)?>(nil)
            let returned = finishes(within: 10) {
                outcome.value = try? CheckDeck.report(DeckFile.stream(path), file: "d.json")
            }
            XCTAssertTrue(returned, "a file of \(text.utf8.count) bytes (\(text)) was read")
            XCTAssertEqual(outcome.value?.output, ["d.json: \(problem)", "d.json: 1 problem found"], text)
            XCTAssertEqual(outcome.value?.valid, false, text)
        }
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
