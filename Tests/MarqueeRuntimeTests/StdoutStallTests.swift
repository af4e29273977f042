import Glibc
import MarqueeCore
import XCTest

/// A program that feeds Marquee's standard input and stops reading its standard output (a stuck
/// pipeline) holds up neither the frames nor loses replies: stdin waits instead, and every reply
/// arrives, in order, once the reader reads again.
final class StdoutStallTests: XCTestCase, SpawnsMarquee {
    func testAReaderThatStopsReadingStdoutDoesNotStallTheFrames() throws {
        let tracePath = "/tmp/marquee-stdout-stall-\(getpid()).trace"
        defer { unlink(tracePath) }
        let marquee = try start(["run", "--backend", "software", "--realtime", "--trace", tracePath])
        defer {
            close(marquee.input)
            close(marquee.output)
        }
        // Replies of 20 bytes: 200,000 of them are 4 MB, far more than the stdout pipe (64 KiB)
        // and the 1 MiB after which Marquee stops reading stdin. Written without blocking, as far
        // as Marquee takes them.
        _ = fcntl(marquee.input, F_SETFL, fcntl(marquee.input, F_GETFL) | O_NONBLOCK)
        let script = Array(("scroll-to end duration=1\n" + String(repeating: "wait 0\n", count: 200_000)).utf8)
        var sent = 0
        var stalls = 0
        while sent < script.count && stalls < 100 {
            let written = script[sent...].withUnsafeBytes { write(marquee.input, $0.baseAddress, $0.count) }
            if written > 0 {
                sent += written
                stalls = 0
            } else {
                stalls += 1
                usleep(10_000)
            }
        }
        XCTAssertLessThan(sent, script.count, "stdin was not read while stdout was not")
        // The scroll plays to its end on the display while nothing is read from stdout.
        let layout = CollectionLayout(deck: DemoDeck.make(), viewport: PixelSize(width: 1280, height: 720))
        XCTAssertTrue(
            eventually(seconds: 8) {
                let trace = (try? SessionHarness.jsonLines(SessionHarness.readFile(tracePath))) ?? []
                return trace.last.map { $0.offsetY == layout.maxOffset } ?? false
            }, "the scroll finished with stdout unread")
        let trace = try SessionHarness.jsonLines(SessionHarness.readFile(tracePath))
        let timestamps = trace.compactMap { $0["timestamp"]?.number }
        let largestSkip = zip(timestamps, timestamps.dropFirst()).map { ($1 - $0) * 60 }.max() ?? 0
        // Room for a loaded machine; a loop blocked on stdout would not finish the scroll at all.
        XCTAssertLessThan(largestSkip, 90, "a frame waited \(largestSkip) vblanks")

        // Now read: every command that went in gets its reply, numbered 1, 2, 3 … in order.
        // A line cut short by the last write is a command too: end of input ends it.
        let lines = script[..<sent].filter { $0 == UInt8(ascii: "\n") }.count
        let commands = lines + (sent > 0 && script[sent - 1] != UInt8(ascii: "\n") ? 1 : 0)
        close(marquee.input)
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(marquee.output, &buffer, buffer.count)
            if count <= 0 { break }
            text += buffer[..<count]
        }
        let replies = String(decoding: text, as: UTF8.self).split(separator: "\n")
            .compactMap { try? JSONParser.parse(String($0)) }.filter { $0["event"] == nil }
        XCTAssertEqual(replies.count, commands)
        let firstOutOfOrder = replies.indices.first { replies[$0]["seq"] != .number(JSONNumber(Double($0 + 1))) }
        XCTAssertNil(firstOutOfOrder, "replies are numbered 1, 2, 3 … in order")
        XCTAssertEqual(exitStatus(marquee), 0)
    }
}
