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

    /// A deck whose card shows `pics/red.png` (relative to the deck's folder) and whose band shows
    /// `band.png`: a snapshot naming either, by any path, is refused and the picture stays; so is a
    /// `--trace` naming one, and one that is standard input's file, before the trace is emptied
    /// (exit status 64).
    func testPicturesTheDeckShowsAndStandardInputAreNotReplaced() throws {
        let folder = SessionHarness.scratch + "/pictures-\(UInt64.random(in: 0..<UInt64.max))"
        mkdir(folder, 0o755)
        mkdir(folder + "/pics", 0o755)
        let picture = "not a PNG: only its bytes matter here"
        SessionHarness.writeFile(folder + "/pics/red.png", picture)
        SessionHarness.writeFile(folder + "/band.png", picture)
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            #"{"templates": {"t": {"elements": [{"image": "p", "left": 0, "top": 0, "width": 10, "height": 10}]}}, "#
                + #""overlays": [{"edge": "top", "height": 40, "template": "t", "fields": {"p": "band.png"}}], "#
                + #""sections": [{"cards": [{"id": "a", "template": "t", "fields": {"p": "pics/red.png"}}, "#
                + #"{"id": "b", "template": "t", "fields": {"p": "pics/red.png"}}]}]}"#)
        let run = try SessionHarness.run(
            "snapshot \(folder)/pics/red.png\nsnapshot \(folder)/pics/../band.png\nsnapshot \(folder)/fine.png\nquit\n",
            deckPath: deck)
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [false, false, true, true], "\(answers)")
        XCTAssertEqual(
            answers[0]["error"]?.string,
            "snapshot \(folder)/pics/red.png is a picture the deck shows: writing it would replace it; name another file"
        )
        XCTAssertTrue(
            answers[1]["error"]?.string?.contains("is a picture the deck shows (\(folder)/band.png)") ?? false,
            "\(answers[1])")
        XCTAssertEqual(SessionHarness.readFile(folder + "/pics/red.png"), picture)
        XCTAssertEqual(SessionHarness.readFile(folder + "/band.png"), picture)

        for trace in [folder + "/pics/red.png", folder + "/band.png"] {
            XCTAssertThrowsError(try SessionHarness.run("quit\n", deckPath: deck) { $0.tracePath = trace }) { error in
                let error = error as! RuntimeError
                XCTAssertTrue(error.message.contains("--trace \(trace) is a picture the deck shows"), error.message)
                XCTAssertEqual(ExitStatus.of(error), 64)
            }
        }
        XCTAssertEqual(SessionHarness.readFile(folder + "/pics/red.png"), picture)
        XCTAssertEqual(SessionHarness.readFile(folder + "/band.png"), picture)

        let commands = folder + "/commands.txt"
        SessionHarness.writeFile(commands, "quit\n")
        let input = open(commands, O_RDONLY)
        defer { close(input) }
        XCTAssertThrowsError(
            try SessionHarness.run("quit\n") {
                $0.inputDescriptor = input
                $0.tracePath = commands
            }
        ) { error in
            let error = error as! RuntimeError
            XCTAssertEqual(
                error.message,
                "--trace \(commands) is standard input (the commands): writing it would replace it; name another file")
            XCTAssertEqual(ExitStatus.of(error), 64)
        }
        XCTAssertEqual(SessionHarness.readFile(commands), "quit\n", "the commands are still there")
    }
}
