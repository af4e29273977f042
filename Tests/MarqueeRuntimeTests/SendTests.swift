import Glibc
import MarqueeCore
import XCTest

/// `marquee send` as a bridge (a feed piped into it) when Marquee goes away: it never drops lines
/// quietly. Without `--reconnect` it fails with exit status 2 and says why; with it, it waits for
/// the socket and sends again what was not answered.
final class SendTests: XCTestCase, SpawnsMarquee {
    var socketPath = ""

    override func setUp() {
        socketPath = SessionHarness.scratch + "/send-\(UInt32.random(in: 0...UInt32.max)).sock"
    }

    func startServer() throws -> Running {
        let server = try start(["run", "--backend", "software", "--realtime", "--control-socket", socketPath])
        XCTAssertTrue(eventually { access(socketPath, F_OK) == 0 }, "the server's socket appears")
        return server
    }

    func stop(_ server: Running) {
        kill(server.pid, SIGTERM)
        XCTAssertEqual(exitStatus(server), 0)
        close(server.input)
        close(server.output)
    }

    func replies(_ text: String) -> [JSONValue] {
        text.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }.filter { $0["ok"] != nil }
    }

    func testTheServerGoingAwayIsAFailureNotASilentEnd() throws {
        let server = try startServer()
        let log = socketPath + ".log"
        let bridge = try start(["send", "--socket", socketPath], stderrPath: log)
        send(bridge, "scroll-to 2 duration=0\n")
        XCTAssertTrue(read(bridge, until: "\"seq\":1").contains("\"ok\":true"))
        stop(server)
        // The feed still has lines to give, and Marquee is gone: exit 2 with the reason.
        XCTAssertEqual(exitStatus(bridge), 2)
        let said = SessionHarness.readFile(log)
        XCTAssertTrue(said.contains("the connection closed with standard input still open"), said)
        close(bridge.input)
        close(bridge.output)
    }

    func testWithReconnectLinesSentWhileMarqueeIsAwayAreAnsweredOnceItIsBack() throws {
        var server = try startServer()
        let log = socketPath + ".log"
        let bridge = try start(["send", "--socket", socketPath, "--reconnect"], stderrPath: log)
        send(bridge, "scroll-to 2 duration=0\n")
        var output = read(bridge, until: "\"seq\":1")
        stop(server)
        XCTAssertTrue(eventually { SessionHarness.readFile(log).contains("waiting for the socket to come back") })
        // Three commands (and a comment, which gets no reply) while nobody listens; the last line
        // has no newline and ends the input.
        send(bridge, "wait 0\n# not a command\nscroll-to 1 duration=0\nbogus")
        close(bridge.input)
        server = try startServer()
        output += read(bridge, until: "\"seq\":3")
        XCTAssertEqual(exitStatus(bridge), 1, "every line answered; one answer was an error")
        // One reply from the first Marquee, then the new one's replies to the three waiting lines, in order.
        XCTAssertEqual(replies(output).map { $0["seq"] }, [1, 1, 2, 3].map { JSONValue.number(JSONNumber($0)) })
        XCTAssertEqual(replies(output).map { $0["ok"] }, [true, true, true, false].map { JSONValue.bool($0) })
        XCTAssertTrue(SessionHarness.readFile(log).contains("sending the 3 line(s) not answered yet"))
        close(bridge.output)
        stop(server)
    }

    func testAFileOfTwelveThousandLinesIsAnsweredWholeWithoutMarqueeDroppingTheClient() throws {
        // Replies and events are several times the size of these lines: a `send` that wrote its
        // input faster than it read would leave Marquee over its 1 MiB cap and be disconnected.
        let serverLog = socketPath + ".server.log"
        let server = try start(
            ["run", "--backend", "software", "--realtime", "--control-socket", socketPath], stderrPath: serverLog)
        XCTAssertTrue(eventually { access(socketPath, F_OK) == 0 }, "the server's socket appears")
        let input = socketPath + ".in"
        let output = socketPath + ".out"
        SessionHarness.writeFile(
            input, String(repeating: "scroll-by 1 duration=0\nscroll-by -1 duration=0\n", count: 6_000))
        let log = socketPath + ".log"
        let bridge = try start(
            ["send", "--socket", socketPath], stderrPath: log,
            runner: ["/bin/sh", "-c", "exec \"$0\" \"$@\" <\(input) >\(output)"])
        let status = exitStatus(bridge, within: 120)
        close(bridge.input)
        close(bridge.output)
        XCTAssertEqual(status, 0, SessionHarness.readFile(log))
        let answers = replies(SessionHarness.readFile(output))
        XCTAssertEqual(answers.count, 12_000)
        XCTAssertEqual(answers.last?["seq"], .number(12_000))
        XCTAssertTrue(answers.allSatisfy { $0["ok"] == .bool(true) })
        XCTAssertFalse(SessionHarness.readFile(serverLog).contains("disconnected"), SessionHarness.readFile(serverLog))
        stop(server)
    }
}
