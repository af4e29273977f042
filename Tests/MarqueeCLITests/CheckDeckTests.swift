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
