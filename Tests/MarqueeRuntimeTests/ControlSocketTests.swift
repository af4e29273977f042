import Glibc
import MarqueeCore
import MarqueeRuntime
import XCTest

/// `run --control-socket` and `marquee send`, on the real binary.
final class ControlSocketTests: XCTestCase, SpawnsMarquee {
    var socketPath = ""

    override func setUp() {
        socketPath = SessionHarness.scratch + "/control-\(UInt32.random(in: 0...UInt32.max)).sock"
    }

    /// Calls `body` with the socket path as a `sockaddr` (for connect and bind).
    func withAddress(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        withUnixAddress(socketPath, body)
    }

    func startServer(extra: [String] = [], stderrPath: String? = nil, descriptorLimit: Int? = nil) throws -> Running {
        let running = try start(
            ["run", "--backend", "software", "--realtime", "--control-socket", socketPath] + extra,
            stderrPath: stderrPath, descriptorLimit: descriptorLimit)
        // Ready when a connection goes through (a stale file may be there before it).
        for _ in 0..<300 {
            let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withAddress { Glibc.connect(probe, $0, $1) }
            close(probe)
            if connected == 0 { break }
            usleep(10_000)
        }
        return running
    }

    /// Connects, sends `text` as it is, and returns the client's fd.
    func connect(sending text: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let connected = withAddress { Glibc.connect(fd, $0, $1) }
        XCTAssertEqual(connected, 0)
        _ = text.withCString { write(fd, $0, strlen($0)) }
        return fd
    }

    /// Reads JSON lines from `fd` until there are `count` of them or `seconds` pass.
    func lines(_ fd: Int32, count: Int, seconds: Int = 3) -> [JSONValue] {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<(seconds * 50) where text.filter({ $0 == "\n" }).count < count {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let read = Glibc.read(fd, &buffer, buffer.count)
            if read <= 0 { break }
            text += String(decoding: buffer[..<read], as: UTF8.self)
        }
        return text.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    func testClientsHaveTheirOwnSequenceNumbersAndEvents() throws {
        let server = try startServer()
        defer {
            kill(server.pid, SIGTERM)
            _ = exitStatus(server)
        }
        var mode = stat()
        XCTAssertEqual(stat(socketPath, &mode), 0)
        XCTAssertEqual(mode.st_mode & 0o777, 0o660)
        let first = try connect(sending: "scroll-to end duration=0.2\nwait idle\n")
        let second = try connect(sending: "bogus\nscroll-to start duration=0\n")
        let firstLines = lines(first, count: 3)
        let secondLines = lines(second, count: 2)
        XCTAssertEqual(firstLines.filter { $0["event"] == nil }.map { $0["seq"] }, [.number(1), .number(2)])
        XCTAssertTrue(firstLines.contains { $0["event"] == .string("scroll-finished") && $0["seq"] == .number(1) })
        XCTAssertEqual(secondLines.first?["seq"], .number(1), "the second client counts from 1 too")
        XCTAssertEqual(secondLines.first?["ok"], .bool(false))
        close(first)
        close(second)
    }

    func testAClientThatLeavesMidLineChangesNothing() throws {
        let server = try startServer()
        defer {
            kill(server.pid, SIGTERM)
            _ = exitStatus(server)
        }
        let leaving = try connect(sending: #"insert 0 {"id": "half""#)
        usleep(50_000)
        close(leaving)
        usleep(50_000)
        let checker = try connect(sending: "delete id:half\n")
        let reply = lines(checker, count: 1).first
        XCTAssertEqual(reply?["ok"], .bool(false))
        XCTAssertTrue(reply?["error"]?.string?.contains("no card has id") ?? false, "\(String(describing: reply))")
        close(checker)
    }

    func testSendPrintsRepliesAndFailsOnAnError() throws {
        let server = try startServer()
        defer {
            kill(server.pid, SIGTERM)
            _ = exitStatus(server)
        }
        XCTAssertEqual(
            try ControlClient.send(socket: socketPath, commands: ["scroll-to 3 duration=0", "wait idle"]), 0)
        XCTAssertEqual(try ControlClient.send(socket: socketPath, commands: ["scroll-to 999"]), 1)
        XCTAssertThrowsError(try ControlClient.send(socket: socketPath + ".missing", commands: ["quit"]))
    }

    func testSocketFileIsRemovedAtExitAndStaleOnesAreReplaced() throws {
        let server = try startServer()
        XCTAssertEqual(access(socketPath, F_OK), 0)
        let second = try start(["run", "--backend", "software", "--control-socket", socketPath])
        XCTAssertEqual(exitStatus(second), 1, "a live socket is not taken over")
        kill(server.pid, SIGTERM)
        XCTAssertEqual(exitStatus(server), 0)
        XCTAssertNotEqual(access(socketPath, F_OK), 0, "removed at exit")
        // A stale socket (nobody listening) is replaced; a plain file is never deleted.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        _ = withAddress { bind(stale, $0, $1) }
        close(stale)
        let again = try startServer()
        XCTAssertEqual(try ControlClient.send(socket: socketPath, commands: ["quit"]), 0)
        XCTAssertEqual(exitStatus(again), 0)
        SessionHarness.writeFile(socketPath, "not a socket")
        let refused = try start(["run", "--backend", "software", "--control-socket", socketPath])
        XCTAssertEqual(exitStatus(refused), 1)
        XCTAssertEqual(SessionHarness.readFile(socketPath), "not a socket")
    }
}
