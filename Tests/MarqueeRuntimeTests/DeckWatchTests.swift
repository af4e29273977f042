import Glibc
import XCTest

/// `--watch` on the software backend (no window needed): a deck saved by writing a new file and
/// renaming it over the old one is shown within a few seconds at the same scroll offset; a
/// broken save keeps the last good deck and says why on stderr.
final class DeckWatchTests: XCTestCase, SpawnsMarquee {
    private func deck(_ prefix: String) -> String {
        let cards = (0..<20).map { #"{"id": "\#(prefix)\#($0)", "title": "\#(prefix) \#($0)"}"# }
        return #"{"sections": [{"cards": [\#(cards.joined(separator: ","))]}]}"#
    }

    /// Saves as many editors do: a new file beside the deck, renamed over it.
    private func save(_ text: String, to path: String) {
        SessionHarness.writeFile(path + ".tmp", text)
        XCTAssertEqual(rename(path + ".tmp", path), 0)
    }

    func testASavedDeckIsShownAtTheSameOffsetAndABrokenOneIsRefused() throws {
        let directory = SessionHarness.scratch + "/watch-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o755)
        let path = directory + "/board.json"
        SessionHarness.writeFile(path, deck("old"))
        let (log, trace) = (directory + "/err.log", directory + "/trace.jsonl")
        let running = try start(
            ["run", "--backend", "software", "--deck", path, "--watch", "--trace", trace], stderrPath: log)
        defer {
            close(running.input)
            close(running.output)
        }
        send(running, "scroll-to 10 duration=0\nwait idle\n")
        XCTAssertTrue(read(running, until: #""seq":2"#).contains(#"{"seq":2,"ok":true}"#))
        func lastFrame() -> String { String(SessionHarness.readFile(trace).split(separator: "\n").last ?? "") }
        // The trace is flushed just after the replies, so the frame may land a moment later.
        func offset() -> Substring? { lastFrame().firstMatch(of: /"offset":\[([0-9.,]+)\]/)?.1 }
        XCTAssertTrue(eventually(seconds: 3) { lastFrame().contains(#""id":"old10""#) }, lastFrame())
        let scrolled = offset()
        XCTAssertNotNil(scrolled)

        save(deck("new"), to: path)
        XCTAssertTrue(eventually(seconds: 3) { lastFrame().contains(#""id":"new10""#) }, lastFrame())
        XCTAssertEqual(offset(), scrolled, "the scroll offset is kept")
        XCTAssertFalse(lastFrame().contains(#""id":"new0""#), "still scrolled, not back at the start")
        XCTAssertTrue(SessionHarness.readFile(log).contains("watch: reloaded \(path)"))

        save("{ broken", to: path)
        XCTAssertTrue(eventually(seconds: 3) { SessionHarness.readFile(log).contains("watch: kept the current deck") })
        XCTAssertTrue(SessionHarness.readFile(log).contains("is invalid"), SessionHarness.readFile(log))
        send(running, "scroll-to id:new12 duration=0\nquit\n")
        XCTAssertTrue(read(running, until: #""seq":4"#).contains(#"{"seq":3,"ok":true}"#), "the last good deck stays")
        XCTAssertEqual(exitStatus(running), 0)
    }

    func testWatchKeepsTheSoftwareBackendRunningAfterInputEnds() throws {
        let directory = SessionHarness.scratch + "/watch-eof-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o755)
        let path = directory + "/board.json"
        SessionHarness.writeFile(path, deck("a"))
        let trace = directory + "/trace.jsonl"
        let running = try start(["run", "--backend", "software", "--deck", path, "--watch", "--trace", trace])
        close(running.input)
        defer { close(running.output) }
        // Edited in place this time (written and closed, as `echo > file` does).
        XCTAssertTrue(eventually(seconds: 3) { SessionHarness.readFile(trace).contains(#""id":"a0""#) })
        SessionHarness.writeFile(path, deck("b"))
        XCTAssertTrue(eventually(seconds: 3) { SessionHarness.readFile(trace).contains(#""id":"b0""#) })
        kill(running.pid, SIGTERM)
        XCTAssertEqual(exitStatus(running), 0)
    }
}
