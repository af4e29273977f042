import Glibc
import MarqueeCore
import XCTest

/// Decks are read one at a time for the whole session, whoever asks (several clients' `load`s
/// each had a thread and a deck in memory of their own: 8 loads of a 19.6 MB deck took 1.96 GB),
/// and a client that goes away is not waited for (a `wait 86400` sent before closing kept its
/// `--max-clients` place and its descriptor for a day).
extension ControlSocketTests {
    /// A deck with a card no other test deck has, that decodes at once.
    static let lastDeck: String = {
        let path = SessionHarness.scratch + "/last-deck.json"
        SessionHarness.writeFile(
            path, #"{"sections": [{"title": "Last", "cards": [{"id": "last-only", "title": "L"}]}]}"#)
        return path
    }()

    /// What has come so far on each of `fds` (read without waiting).
    func collect(_ fds: [Int32], into texts: inout [String]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (index, fd) in fds.enumerated() {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while poll(&descriptor, 1, 0) > 0 {
                let count = Glibc.read(fd, &buffer, buffer.count)
                if count <= 0 { break }
                texts[index] += String(decoding: buffer[..<count], as: UTF8.self)
            }
        }
    }

    /// The server's threads once it is running its loop: a command answered first. The socket
    /// listens before the session has made its picture workers, so a count taken as soon as a
    /// connection goes through can miss them (a CI run counted too few, and waited in vain for
    /// the count to come back down to it).
    func readyThreadCount(_ server: Running) throws -> Int {
        try waitUntilServing()
        return threadCount(server)
    }

    /// Returns once the server has answered a command (its session made, its loop running),
    /// asking again while it refuses (with `--max-clients 1`, until the probes before are gone).
    func waitUntilServing() throws {
        for _ in 0..<100 {
            let probe = try connect(sending: "wait 0\n")
            defer { close(probe) }
            if lines(probe, count: 1).first?["ok"] == .bool(true) { return }
            usleep(50_000)
        }
        XCTFail("the server never answered")
    }

    /// Starts a server, calls `body` with it and its thread count once it answers
    /// (`readyThreadCount`), and ends it (SIGTERM, then waits for it) however `body` returns.
    func withServer(_ body: (_ server: Running, _ idleThreads: Int) throws -> Void) throws {
        let server = try startServer()
        defer {
            kill(server.pid, SIGTERM)
            _ = exitStatus(server)
        }
        try body(server, try readyThreadCount(server))
    }

    func testLoadsFromSeveralClientsAreReadOneAtATimeInTheOrderTheyCame() throws {
        let slow = Self.slowDeck
        let last = Self.lastDeck
        try withServer { server, idleThreads in
            let first = try connect(sending: "load \(slow)\nscroll-to id:c399999 duration=0\n")
            XCTAssertTrue(eventually { threadCount(server) > idleThreads }, "the first deck is being read")
            let second = try connect(sending: "load \(slow)\nscroll-to id:c5 duration=0\n")
            let third = try connect(sending: "load \(last)\nscroll-to id:last-only duration=0\n")
            let clients = [first, second, third]
            var texts = ["", "", ""]
            var answeredAt: [Int?] = [nil, nil, nil]
            var mostThreads = 0
            var step = 0
            while answeredAt.contains(where: { $0 == nil }) && step < 12_000 {
                mostThreads = max(mostThreads, threadCount(server))
                collect(clients, into: &texts)
                for index in 0..<3 where answeredAt[index] == nil && texts[index].contains("\"seq\":2") {
                    answeredAt[index] = step
                }
                step += 1
                usleep(10_000)
            }
            // One deck read at a time: never two loader threads (each load had its own before).
            XCTAssertEqual(mostThreads, idleThreads + 1, "threads: \(idleThreads) idle, \(mostThreads) at most")
            // Each client's replies in its own order, the later command run on the deck it loaded.
            for text in texts {
                XCTAssertTrue(text.contains(#"{"seq":1,"ok":true}"#), text)
                XCTAssertTrue(text.contains(#"{"seq":2,"ok":true}"#), text)
            }
            // The decks were shown in the order asked for (the small one, read first, was shown
            // first before, then replaced by the slow ones).
            if let a = answeredAt[0], let b = answeredAt[1], let c = answeredAt[2] {
                XCTAssertLessThanOrEqual(a, b)
                XCTAssertLessThanOrEqual(b, c)
            }
            // The last deck asked for is the one shown.
            let checker = try connect(sending: "scroll-to id:last-only duration=0\n")
            XCTAssertEqual(lines(checker, count: 1).first?["ok"], .bool(true), "the last deck loaded is shown")
            for fd in clients + [checker] { close(fd) }
        }
    }

    func testAClientGoneWhileItsDeckIsReadIsNotShownAndTheNextLoadGoesOn() throws {
        let slow = Self.slowDeck
        let last = Self.lastDeck
        try withServer { server, idleThreads in
            let leaving = try connect(sending: "load \(slow)\n")
            XCTAssertTrue(eventually { threadCount(server) > idleThreads }, "the deck is being read")
            let staying = try connect(sending: "load \(last)\nscroll-to id:last-only duration=0\n")
            close(leaving)
            let replies = lines(staying, count: 2, seconds: 120)
            XCTAssertEqual(replies.map { $0["ok"] }, [.bool(true), .bool(true)], "\(replies)")
            // The deck of the client that left was abandoned, not shown over the later one (before,
            // it was shown when its thread ended).
            XCTAssertTrue(
                eventually(seconds: 120) { threadCount(server) <= idleThreads },
                "threads: \(threadCount(server)), \(idleThreads) idle")
            usleep(300_000)
            let checker = try connect(sending: "scroll-to id:last-only duration=0\n")
            XCTAssertEqual(lines(checker, count: 1).first?["ok"], .bool(true))
            close(staying)
            close(checker)
        }
    }

    func testAClientGoneWithAWaitLeavesItsPlaceButAHalfClosedOneIsAnswered() throws {
        let server = try startServer(extra: ["--max-clients", "1"])
        defer {
            kill(server.pid, SIGTERM)
            _ = exitStatus(server)
        }
        try waitUntilServing()
        usleep(200_000)  // the probes of startServer and that one are gone
        let idleDescriptors = descriptorCount(server)
        // Sends a day's wait and hangs up (a `marquee send 'wait 86400'` stopped with Ctrl-C).
        let gone = try connect(sending: "wait 86400\n")
        usleep(100_000)
        close(gone)
        let next = try connect(sending: "scroll-by 1\n")
        let reply = lines(next, count: 1).first
        XCTAssertEqual(reply?["ok"], .bool(true), "the place of the client gone was free: \(String(describing: reply))")
        close(next)
        XCTAssertTrue(
            eventually { descriptorCount(server) <= idleDescriptors },
            "descriptors: \(descriptorCount(server)), \(idleDescriptors) idle")
        // A client that only shuts down its sending side (as `marquee send` does) still gets
        // the reply to its wait.
        let halfClosed = try connect(sending: "wait 1\n")
        shutdown(halfClosed, Int32(SHUT_WR))
        let answer = lines(halfClosed, count: 1, seconds: 5).first
        XCTAssertEqual(answer?["seq"], .number(1))
        XCTAssertEqual(answer?["ok"], .bool(true), "\(String(describing: answer))")
        close(halfClosed)
    }
}
