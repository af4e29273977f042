import Glibc
import MarqueeCore
import MarqueeRuntime
import XCTest

/// Paths that are not plain files, or too large, given to `load`, `--deck`, `--font` and
/// `snapshot` (issue 14): each is a clear error, never a hang, and the session goes on.
final class HostileFileTests: XCTestCase, SpawnsMarquee {
    var folder = ""

    override func setUp() {
        folder = SessionHarness.scratch + "/hostile-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
    }

    func testLoadRefusesFilesThatAreNotRegularOrTooLargeAndTheSessionGoesOn() throws {
        let fifo = folder + "/fifo.json"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let socketPath = folder + "/socket.json"
        let listener = try bindSocket(socketPath)
        defer { close(listener) }
        // Sparse: one byte over the cap without writing 256 MiB.
        let huge = folder + "/huge.json"
        SessionHarness.writeFile(huge, "")
        XCTAssertEqual(truncate(huge, off_t(DeckFile.maximumBytes + 1)), 0)
        let script = """
            load \(fifo)
            load \(folder)
            load /dev/zero
            load \(socketPath)
            load \(huge)
            scroll-to 3 duration=0
            wait idle

            """
        let run = try SessionHarness.run(script)
        let replies = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(replies.map { $0["seq"] }, (1...7).map { .number(JSONNumber(Double($0))) })
        let expected = [
            "load: cannot read deck \(fifo): it is a FIFO (named pipe), not a regular file",
            "load: cannot read deck \(folder): it is a directory, not a regular file",
            "load: cannot read deck /dev/zero: it is a character device, not a regular file",
            "load: cannot read deck \(socketPath): it is a socket, not a regular file",
            "load: cannot read deck \(huge): it is 256.0 MiB, more than the 256 MiB a deck file may have",
        ]
        XCTAssertEqual(replies.prefix(5).map { $0["error"]?.string }, expected)
        XCTAssertEqual(replies.suffix(2).map { $0["ok"] }, [.bool(true), .bool(true)], "the session went on")
    }

    func testStartupDeckAndFontThatAreFIFOsAreErrorsNotHangs() throws {
        let fifo = folder + "/start.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let log = folder + "/start.log"
        let deck = try start(["run", "--backend", "software", "--deck", fifo], stderrPath: log)
        XCTAssertEqual(exitStatus(deck), 1, "a FIFO given to --deck fails at start")
        close(deck.input)
        close(deck.output)
        let font = try start(["run", "--backend", "software", "--font", fifo], stderrPath: log)
        XCTAssertEqual(exitStatus(font), 1, "a FIFO given to --font fails at start")
        close(font.input)
        close(font.output)
        let text = SessionHarness.readFile(log)
        XCTAssertTrue(text.contains("cannot read deck \(fifo): it is a FIFO (named pipe), not a regular file"), text)
        XCTAssertTrue(text.contains("cannot read font \(fifo): it is a FIFO (named pipe), not a regular file"), text)
    }

    /// A FIFO waiting at the snapshot's temporary name is replaced, never opened.
    func testSnapshotDoesNotOpenAFIFOAtItsTemporaryName() throws {
        let target = folder + "/shot.png"
        XCTAssertEqual(mkfifo("\(target).tmp-\(getpid())", 0o600), 0)
        let run = try SessionHarness.run("snapshot \(target)\n")
        XCTAssertEqual(run.replies.first?["ok"], .bool(true), "\(run.replies)")
        var status = stat()
        XCTAssertEqual(stat(target, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFREG)
    }

    /// SIGHUP when the `--deck` path has become a FIFO: logged, the deck kept, commands answered.
    func testHangUpWithTheDeckTurnedIntoAFIFOKeepsServing() throws {
        let path = folder + "/hup.json"
        SessionHarness.writeFile(path, #"{"sections": [{"cards": [{"id": "kept"}]}]}"#)
        let log = folder + "/hup.log"
        let running = try start(["run", "--backend", "software", "--realtime", "--deck", path], stderrPath: log)
        send(running, "wait 0\n")
        XCTAssertTrue(read(running, until: "\"seq\":1").contains(#"{"seq":1,"ok":true}"#))
        unlink(path)
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        kill(running.pid, SIGHUP)
        XCTAssertTrue(eventually { SessionHarness.readFile(log).contains("SIGHUP: kept the current deck") })
        XCTAssertTrue(SessionHarness.readFile(log).contains("it is a FIFO (named pipe), not a regular file"))
        send(running, "scroll-to id:kept duration=0\nquit\n")
        XCTAssertTrue(read(running, until: "\"seq\":3").contains(#"{"seq":2,"ok":true}"#))
        XCTAssertEqual(exitStatus(running), 0)
        close(running.input)
        close(running.output)
    }

    private func bindSocket(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withUnixAddress(path) { bind(fd, $0, $1) }
        XCTAssertEqual(bound, 0)
        return fd
    }
}
