import Glibc
import MarqueeCore
import XCTest

/// `snapshot` and `wait idle` while `display off` or a schedule rule keeps the display off: only a
/// command (held behind them in the same queue) or the schedule could bring it back, so they are
/// answered at once with an error and the script goes on to its end. Run as a script piped into
/// the real binary, so that a hang fails the test (after a few seconds) instead of stopping it.
final class DisplayOffWaitTests: XCTestCase, SpawnsMarquee {
    /// Pipes `script` into `marquee run --backend software ARGUMENTS`, closes the input and
    /// returns the JSON lines it wrote and its exit status (nil when it did not exit within
    /// about 10 s of the end of its input).
    func runScript(_ script: String, _ arguments: [String] = []) throws -> (lines: [JSONValue], status: Int32?) {
        let running = try start(["run", "--backend", "software"] + arguments)
        send(running, script)
        close(running.input)
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<350 {
            var descriptor = pollfd(fd: running.output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let count = Glibc.read(running.output, &buffer, buffer.count)
            if count <= 0 { break }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        let status = exitStatus(running)
        close(running.output)
        return (try SessionHarness.jsonLines(text), status)
    }

    func answers(_ lines: [JSONValue]) -> [JSONValue] { lines.filter { $0["seq"] != nil && $0["event"] == nil } }

    func testSnapshotAndWaitIdleWhileTheDisplayIsOffAreRefusedAndTheScriptGoesOn() throws {
        let refused = SessionHarness.scratch + "/off-refused.png"
        let taken = SessionHarness.scratch + "/off-taken.png"
        unlink(refused)
        unlink(taken)
        let run = try runScript(
            """
            display off
            scroll-to end duration=1
            snapshot \(refused)
            wait idle
            display on
            wait idle
            snapshot \(taken)

            """)
        XCTAssertEqual(run.status, 0, "the run ends with its input: \(run.lines)")
        let answers = answers(run.lines)
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, false, false, true, true, true], "\(run.lines)")
        guard answers.count == 7 else { return }
        XCTAssertEqual(
            answers[2]["error"]?.string, "snapshot: the display is off (display off); send display on first")
        XCTAssertEqual(
            answers[3]["error"]?.string, "wait idle: the display is off (display off); send display on first")
        XCTAssertNotEqual(access(refused, F_OK), 0, "a refused snapshot writes nothing")
        XCTAssertEqual(access(taken, F_OK), 0)
        // The scroll ran on meanwhile and ended at the first frame after `display on`.
        XCTAssertTrue(run.lines.contains { $0["event"]?.string == "scroll-finished" })
    }

    func testSnapshotWhileAScheduleRuleKeepsTheDisplayOffIsRefusedNamingTheRule() throws {
        // A time zone where it is about 02:00 now, inside the rule's night.
        let hour = Int(time(nil) / 3600 % 24)
        let east = (2 - hour + 24) % 24
        let savedTZ = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "NIGHT-\(east)", 1)
        defer {
            if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        }
        let deck = SessionHarness.scratch + "/night-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(
            deck,
            """
            {"schedule": [{"from": "23:00", "to": "06:00", "display": "off"}],
             "sections": [{"cards": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]}]}
            """)
        let night = SessionHarness.scratch + "/night.png"
        let shown = SessionHarness.scratch + "/night-on.png"
        unlink(night)
        unlink(shown)
        let run = try runScript(
            """
            snapshot \(night)
            wait idle
            display on
            wait idle
            snapshot \(shown)

            """, ["--deck", deck])
        XCTAssertEqual(run.status, 0, "the run ends with its input: \(run.lines)")
        let answers = answers(run.lines)
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [false, false, true, true, true], "\(run.lines)")
        guard answers.count == 5 else { return }
        XCTAssertEqual(
            answers[0]["error"]?.string,
            "snapshot: the display is off (the schedule's \"display\": \"off\" rule, 23:00 to 06:00); send display on first"
        )
        XCTAssertEqual(answers[1]["error"]?.string?.hasPrefix("wait idle: the display is off (the schedule's"), true)
        XCTAssertNotEqual(access(night, F_OK), 0)
        XCTAssertEqual(access(shown, F_OK), 0)
    }
}
