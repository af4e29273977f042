import MarqueeCore
import MarqueeRuntime
import XCTest

/// `snapshot` replaces its file (a `.png`; decks and traces may be named so too): one naming the deck shown (the `--deck` file or the last `load`'s,
/// through a symlink too) or the trace is refused, and the file stays as it was.
final class SnapshotPathTests: XCTestCase {
    func testASnapshotOverTheDeckOrTheTraceIsRefused() throws {
        let deck = SessionHarness.scratch + "/snapshot-deck.png"
        let loaded = SessionHarness.scratch + "/snapshot-loaded.png"
        let link = SessionHarness.scratch + "/snapshot-link.png"
        let text = #"{"sections": [{"cards": [{"id": "a", "title": "a"}]}]}"#
        SessionHarness.writeFile(deck, text)
        SessionHarness.writeFile(loaded, text)
        unlink(link)
        symlink(deck, link)
        let trace = SessionHarness.scratch + "/snapshot-trace.png"
        let run = try SessionHarness.run(
            """
            snapshot \(deck)
            snapshot \(link)
            load \(loaded)
            snapshot \(loaded)
            snapshot \(trace)
            snapshot \(SessionHarness.scratch)/snapshot-fine.png
            quit

            """, deckPath: deck
        ) { $0.tracePath = trace }
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [false, false, true, false, false, true, true], "\(answers)")
        XCTAssertEqual(
            answers[0]["error"]?.string,
            "snapshot \(deck) is the deck file shown: writing it would replace it; name another file")
        XCTAssertTrue(
            answers[1]["error"]?.string?.contains("is the deck file shown (\(deck))") ?? false, "\(answers[1])")
        XCTAssertTrue(answers[3]["error"]?.string?.contains("is the deck file shown") ?? false, "\(answers[3])")
        XCTAssertTrue(answers[4]["error"]?.string?.contains("is the --trace file") ?? false, "\(answers[4])")
        XCTAssertEqual(SessionHarness.readFile(deck), text)
        XCTAssertEqual(SessionHarness.readFile(loaded), text)
        XCTAssertTrue(SessionHarness.readFile(trace).hasPrefix("{"), "the trace still holds frames")
    }
}
