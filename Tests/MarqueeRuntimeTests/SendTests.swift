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

    /// A connection to the socket that Marquee serves (answered `wait 0`), held until closed.
    func holdASlot() throws -> Int32 {
        // Close-on-exec: a `send` started later must not keep it open after the test closes it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        XCTAssertEqual(withUnixAddress(socketPath) { Glibc.connect(fd, $0, $1) }, 0)
        _ = "wait 0\n".withCString { write(fd, $0, strlen($0)) }
        var buffer = [UInt8](repeating: 0, count: 256)
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 5000), 1)
        let count = Glibc.read(fd, &buffer, buffer.count)
        XCTAssertTrue(
            count > 0 && String(decoding: buffer[..<count], as: UTF8.self).contains(#""seq":1,"ok":true"#),
            "the holder is served")
        return fd
    }

    /// Marquee at `--max-clients` answers a new connection with one error line without `seq`
    /// and closes it. That is no reply to a line: with `--reconnect`, send tries again with its
    /// backoff and every line is answered once a place frees. Before, the refusal was taken as
    /// the first line's reply and send reconnected at once, tens of thousands of times a second,
    /// and no line reached the deck.
    func testWithReconnectARefusedConnectionIsTriedAgainAndEveryLineArrivesOnceAPlaceFrees() throws {
        let server = try start([
            "run", "--backend", "software", "--realtime", "--max-clients", "1", "--control-socket", socketPath,
        ])
        XCTAssertTrue(eventually { access(socketPath, F_OK) == 0 }, "the server's socket appears")
        var holder = try holdASlot()
        let log = socketPath + ".log"
        let bridge = try start(["send", "--socket", socketPath, "--reconnect"], stderrPath: log)
        for name in ["n1", "n2", "n3"] { send(bridge, #"insert 0 {"id": "\#(name)", "title": "\#(name)"}"# + "\n") }
        XCTAssertTrue(
            eventually { SessionHarness.readFile(log).contains("refused the connection: too many clients (1)") })
        usleep(1_500_000)
        // Backing off, not spinning: before, it used a whole core refusing and reconnecting.
        XCTAssertLessThan(cpuSeconds(bridge), 0.3, "send waits between tries")
        close(holder)
        close(bridge.input)
        let output = read(bridge, until: #""seq":3"#, seconds: 8)
        XCTAssertEqual(exitStatus(bridge, within: 5), 0, SessionHarness.readFile(log))
        XCTAssertEqual(replies(output).map { $0["seq"] }, [1, 2, 3].map { JSONValue.number(JSONNumber($0)) }, output)
        XCTAssertTrue(replies(output).allSatisfy { $0["ok"] == .bool(true) }, output)
        XCTAssertFalse(output.contains("too many clients"), "a refusal is no reply: \(output)")
        let said = SessionHarness.readFile(log)
        XCTAssertEqual(said.components(separatedBy: "refused the connection").count - 1, 1, "said once: \(said)")
        XCTAssertTrue(said.contains("connected; sending the 3 line(s) not answered yet first"), said)
        // The three cards are in the deck, once each.
        holder = try holdASlot()
        _ = "scroll-to id:n1\nscroll-to id:n2\nscroll-to id:n3\nscroll-to 3\n".withCString {
            write(holder, $0, strlen($0))
        }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<250 where text.components(separatedBy: "\n").count < 5 {
            var descriptor = pollfd(fd: holder, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let count = Glibc.read(holder, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        XCTAssertEqual(replies(text).map { $0["ok"] }, [true, true, true, true].map { JSONValue.bool($0) }, text)
        close(holder)
        stop(server)
    }

    /// Without `--reconnect`, a refusal is one message naming it and exit status 2, every time,
    /// whether the lines come as arguments or on standard input. Before: the refusal printed as
    /// a reply, then "the connection closed with standard input still open" (for arguments) and
    /// exit status 2 or 1 depending on which came first, the refusal or the failed write.
    func testWithoutReconnectARefusalIsOneMessageAndExitStatus2() throws {
        let server = try start([
            "run", "--backend", "software", "--realtime", "--max-clients", "1", "--control-socket", socketPath,
        ])
        XCTAssertTrue(eventually { access(socketPath, F_OK) == 0 }, "the server's socket appears")
        let holder = try holdASlot()
        for round in 0..<6 {
            let log = socketPath + ".\(round).log"
            let arguments = round % 2 == 0 ? ["scroll-to 1", "scroll-to 2", "wait 0"] : []
            let client = try start(["send", "--socket", socketPath] + arguments, stderrPath: log)
            if arguments.isEmpty {
                send(client, "scroll-to 1\n")
                close(client.input)
            }
            let status = exitStatus(client, within: 5)
            let output = read(client, until: "\n", seconds: 1)
            if !arguments.isEmpty { close(client.input) }
            close(client.output)
            let said = SessionHarness.readFile(log)
            XCTAssertEqual(status, 2, "round \(round): \(said)")
            XCTAssertEqual(
                said,
                "marquee: error: \(socketPath): marquee refused the connection: too many clients (1) (with --reconnect, send tries again until it is served)\n",
                "round \(round)")
            XCTAssertEqual(output, "", "round \(round): a refusal is no reply")
        }
        close(holder)
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
