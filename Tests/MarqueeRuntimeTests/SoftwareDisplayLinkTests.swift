import Glibc
import MarqueeCore
import MarqueeDisplay
import XCTest

final class SoftwareDisplayLinkTests: XCTestCase {
    func testVirtualLinkTicksEveryPeriodWithoutWaiting() throws {
        let link = SoftwareDisplayLink(refreshRate: 50, realtime: false)
        var times: [FrameTime] = []
        for _ in 0..<4 {
            link.requestFrame()
            XCTAssertEqual(link.pollTimeoutMilliseconds(), 0)
            times.append(try XCTUnwrap(link.dispatch()))
        }
        XCTAssertEqual(times.map(\.timestamp), [0, 0.02, 0.04, 0.06])
        XCTAssertEqual(times.map(\.targetTimestamp), [0.02, 0.04, 0.06, 0.08])
        XCTAssertFalse(link.isFramePending)
        XCTAssertEqual(link.pollTimeoutMilliseconds(), -1, "nothing pending: sleep without a timeout")
    }

    func testIdleTimeMovesTheNextFrameToTheNextVblank() throws {
        let link = SoftwareDisplayLink(refreshRate: 60, realtime: false)
        link.requestFrame()
        _ = link.dispatch()
        link.advanceIdle(to: 1.005)
        link.requestFrame()
        let time = try XCTUnwrap(link.dispatch())
        XCTAssertEqual(time.timestamp, 61.0 / 60, accuracy: 1e-12, "the first vblank at or after 1.005 s")
    }

    func testMaxFPSSkipsVblanks() throws {
        let link = SoftwareDisplayLink(refreshRate: 60, realtime: false, maximumFramesPerSecond: 20)
        var stamps: [Double] = []
        for _ in 0..<3 {
            link.requestFrame()
            stamps.append(try XCTUnwrap(link.dispatch()).timestamp)
        }
        XCTAssertEqual(stamps[1] - stamps[0], 3.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(stamps[2] - stamps[1], 3.0 / 60, accuracy: 1e-12)
    }

    /// Real time: the link must deliver each pending frame once its vblank has passed, however
    /// late the loop wakes (it once chased the following vblank forever).
    func testRealtimeLinkDeliversFramesAfterTheirVblank() throws {
        let link = SoftwareDisplayLink(refreshRate: 100, realtime: true)
        var delivered: [FrameTime] = []
        var attempts = 0
        while delivered.count < 5 {
            attempts += 1
            guard attempts < 50 else { return XCTFail("only \(delivered.count) frames in 50 wake-ups") }
            if !link.isFramePending { link.requestFrame() }
            let timeout = link.pollTimeoutMilliseconds()
            XCTAssertGreaterThanOrEqual(timeout, 0)
            XCTAssertLessThanOrEqual(timeout, 10)
            usleep(UInt32(timeout) * 1000 + 3000)  // wake late on purpose
            if let time = link.dispatch() { delivered.append(time) }
        }
        for (earlier, later) in zip(delivered, delivered.dropFirst()) {
            XCTAssertGreaterThan(later.timestamp, earlier.timestamp)
            let vblanks = (later.timestamp - earlier.timestamp) * 100
            XCTAssertEqual(vblanks, vblanks.rounded(), accuracy: 1e-6, "frame times are vblank times")
        }
    }
}
