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

    /// A snapshot over a FIFO or a device (or a symlink to one) would replace it by a rename.
    func testASnapshotOverAFIFOOrADeviceIsRefused() throws {
        let fifo = SessionHarness.scratch + "/snapshot-fifo.png"
        let null = SessionHarness.scratch + "/snapshot-null.png"
        unlink(fifo)
        unlink(null)
        mkfifo(fifo, 0o644)
        symlink("/dev/null", null)
        defer {
            unlink(fifo)
            unlink(null)
        }
        let run = try SessionHarness.run("snapshot \(fifo)\nsnapshot \(null)\nquit\n")
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [false, false, true], "\(answers)")
        XCTAssertEqual(
            answers[0]["error"]?.string,
            "snapshot \(fifo) is a FIFO (named pipe), not a regular file: writing it would replace it; name a file")
        XCTAssertTrue(answers[1]["error"]?.string?.contains("is a character device") ?? false, "\(answers[1])")
        var status = stat()
        XCTAssertEqual(lstat(fifo, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the FIFO stays")
        XCTAssertEqual(lstat(null, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFLNK, "the symlink stays")
    }
}
