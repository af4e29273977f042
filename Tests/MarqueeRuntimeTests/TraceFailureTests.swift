import Glibc
import XCTest

/// A trace that cannot be written (a full disk; `/dev/full` fails every write with ENOSPC) is
/// said once on stderr, with the path and the reason, and only the trace stops: the commands are
/// answered, the scrolls finish and the snapshot is written.
final class TraceFailureTests: XCTestCase, SpawnsMarquee {
    func testAFailedTraceWriteIsLoggedOnceAndTheSessionGoesOn() throws {
        let folder = SessionHarness.scratch + "/trace-full-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
        let log = folder + "/stderr.log"
        let snapshot = folder + "/after.png"
        let running = try start(
            ["run", "--backend", "software", "--size", "320x240", "--trace", "/dev/full"], stderrPath: log)
        // Two long scrolls: thousands of frames, many buffers' worth of trace lines, each a write
        // that fails.
        send(
            running,
            "scroll-to end duration=20\nwait idle\nscroll-to start duration=20\nwait idle\nsnapshot \(snapshot)\n")
        close(running.input)
        let output = read(running, until: #""seq":5"#, seconds: 60)
        close(running.output)
        XCTAssertEqual(exitStatus(running), 0)
        XCTAssertEqual(output.components(separatedBy: #""ok":true"#).count - 1, 5, output)
        XCTAssertEqual(output.components(separatedBy: #""event":"scroll-finished""#).count - 1, 2, output)
        XCTAssertEqual(access(snapshot, F_OK), 0, "the snapshot after the failure was written")
        let lines = SessionHarness.readFile(log).split(separator: "\n")
        XCTAssertEqual(
            lines.filter { $0.contains("trace") },
            [
                "marquee: error: cannot write trace file /dev/full: No space left on device; tracing stopped, frames go on"
            ],
            "\(lines)")
    }
}
