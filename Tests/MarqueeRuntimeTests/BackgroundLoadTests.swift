import Glibc
import MarqueeCore
import XCTest

/// `load` reads and decodes on a thread of its own (issue 14): the display and the other
/// controllers go on meanwhile, and SIGTERM ends Marquee at once, even mid-load.
extension ControlSocketTests {
    /// A deck that takes the debug build seconds to decode (400,000 cards, about 25 MB; 50,000
    /// took 0.4 s once cards were decoded straight into their bytes, less than the scroll below).
    static let slowDeck: String = {
        let path = SessionHarness.scratch + "/slow-deck.json"
        var text = #"{"sections": [{"title": "All", "cards": ["#
        for index in 0..<400_000 {
            if index > 0 { text += "," }
            text += #"{"id": "c\#(index)", "title": "Card \#(index)", "body": "Platform \#(index % 9)"}"#
        }
        text += "]}]}"
        SessionHarness.writeFile(path, text)
        return path
    }()

    func testFramesAndOtherClientsGoOnWhileADeckLoads() throws {
        let deck = Self.slowDeck
        // The picture workers are threads too: the loader's is one more than those.
        try withServer { server, idleThreads in
            send(server, "load \(deck)\nscroll-to id:c399999 duration=0\n")
            XCTAssertTrue(eventually { threadCount(server) > idleThreads }, "the deck is being read on a thread")
            // Another controller scrolls to the end and waits for it: every frame of that scroll is
            // presented while the load goes on.
            let other = try connect(sending: "scroll-to end duration=0.3\nwait idle\n")
            let otherLines = lines(other, count: 3)
            XCTAssertEqual(otherLines.last?["seq"], .number(2), "\(otherLines)")
            XCTAssertTrue(otherLines.contains { $0["event"] == .string("scroll-finished") })
            let before = read(server, until: "\"seq\":1", seconds: 0)
            XCTAssertFalse(before.contains("\"seq\":1"), "the load was still going: \(before)")
            // The load's reply, then the command that waited behind it, in order, on the new deck.
            let after = read(server, until: "\"seq\":2", seconds: 120)
            XCTAssertTrue(after.contains(#"{"seq":1,"ok":true}"#), after)
            XCTAssertTrue(after.contains(#"{"seq":2,"ok":true}"#), "seq 2 waited for the new deck: \(after)")
            close(other)
        }
    }

    func testTerminateDuringALongLoadExitsWithinASecond() throws {
        let deck = Self.slowDeck
        let server = try startServer()
        let idleThreads = try readyThreadCount(server)
        send(server, "load \(deck)\n")
        XCTAssertTrue(eventually { threadCount(server) > idleThreads }, "the deck is being read on a thread")
        kill(server.pid, SIGTERM)
        var status: Int32 = 0
        var exited = false
        // SIGTERM ends Marquee within one second in every state (issue 14).
        for _ in 0..<100 where !exited {
            exited = waitpid(server.pid, &status, WNOHANG) == server.pid
            if !exited { usleep(10_000) }
        }
        XCTAssertTrue(exited, "still running a second after SIGTERM")
        if exited { XCTAssertEqual((status >> 8) & 0xff, 0) } else { _ = exitStatus(server) }
        let output = read(server, until: "\"seq\":1", seconds: 0)
        XCTAssertFalse(output.contains("\"seq\":1"), "the load had finished first; the test proved nothing")
        close(server.input)
        close(server.output)
    }
}
