import Glibc
import MarqueeCore
import XCTest

/// The real binary under signals (issue 6): it must exit 0 between frames on SIGINT and SIGTERM,
/// reload `--deck` on SIGHUP (keeping the old deck if the new file is bad), and keep running when
/// the reader of its output goes away. Uses the `marquee` that `swift build --build-tests` builds.
final class SignalTests: XCTestCase, SpawnsMarquee {
    func testTerminateAndInterruptExitZeroMidAnimation() throws {
        for signal in [SIGTERM, SIGINT] {
            let trace = SessionHarness.scratch + "/signal-\(signal).trace"
            let running = try start(["run", "--backend", "software", "--realtime", "--trace", trace])
            send(running, "scroll-to end duration=5\n")
            XCTAssertTrue(read(running, until: "\"seq\":1").contains("\"ok\":true"))
            // Mid-animation: frames of the scroll are being presented (the trace is flushed
            // whenever the loop waits for the next vblank).
            XCTAssertTrue(eventually { SessionHarness.readFile(trace).split(separator: "\n").count >= 3 })
            kill(running.pid, signal)
            XCTAssertEqual(exitStatus(running), 0, "signal \(signal)")
            close(running.input)
            close(running.output)
        }
    }

    func testHangUpReloadsTheDeckAndKeepsItWhenTheFileTurnsBad() throws {
        let path = SessionHarness.scratch + "/hup.json"
        SessionHarness.writeFile(path, #"{"sections": [{"cards": [{"id": "first"}]}]}"#)
        let log = SessionHarness.scratch + "/hup-\(UInt32.random(in: 0...UInt32.max)).log"
        let running = try start(["run", "--backend", "software", "--realtime", "--deck", path], stderrPath: log)
        send(running, "wait 0.05\n")
        _ = read(running, until: "\"seq\":1")
        SessionHarness.writeFile(path, #"{"sections": [{"cards": [{"id": "second"}]}]}"#)
        kill(running.pid, SIGHUP)
        // The reload is read on a thread and logged when it is shown.
        XCTAssertTrue(eventually { SessionHarness.readFile(log).contains("SIGHUP: reloaded") })
        send(running, "scroll-to id:second duration=0\n")
        XCTAssertTrue(read(running, until: "\"seq\":2").contains(#"{"seq":2,"ok":true}"#), "the new deck is shown")
        SessionHarness.writeFile(path, "{ broken")
        kill(running.pid, SIGHUP)
        XCTAssertTrue(eventually { SessionHarness.readFile(log).contains("SIGHUP: kept the current deck") })
        send(running, "scroll-to id:second duration=0\nquit\n")
        let output = read(running, until: "\"seq\":4")
        XCTAssertTrue(output.contains(#"{"seq":3,"ok":true}"#), "the good deck stayed: \(output)")
        XCTAssertEqual(exitStatus(running), 0)
        close(running.input)
        close(running.output)
    }

    func testAReaderThatGoesAwayDoesNotStopTheRenderer() throws {
        let running = try start(["run", "--backend", "software"])
        close(running.output)  // nobody reads the replies any more
        send(running, "scroll-to end duration=0.5\nwait idle\nbogus\n")
        close(running.input)  // end of input: finish and exit 0
        XCTAssertEqual(exitStatus(running), 0)
    }
}
