import CDRM
import Glibc
import XCTest

@testable import MarqueeDisplay

/// Two outputs' display links on one card read one descriptor: an event may be read by the link
/// that did not ask for it. Here the descriptor is a pipe fed the bytes the kernel would send (a
/// `drm_event_vblank` of type flip-complete), parsed by libdrm's own `drmHandleEvent`.
final class DRMSharedDescriptorTests: XCTestCase {
    private var pipeEnds: [Int32] = [-1, -1]

    override func setUp() {
        XCTAssertEqual(pipe(&pipeEnds), 0)
    }

    override func tearDown() {
        for end in pipeEnds where end >= 0 { close(end) }
    }

    private func link(crtcIndex: Int) -> DRMDisplayLink {
        DRMDisplayLink(
            fd: pipeEnds[0], crtcIndex: crtcIndex, pacing: FramePacing(refreshRate: 60, maximumFramesPerSecond: nil),
            monotonicTimestamps: true, log: { _ in })
    }

    /// The flip-complete event the kernel sends for a flip whose user data was `events`.
    private func sendFlipCompleted(to events: UnsafeMutablePointer<marquee_drm_events>, at time: Double) {
        var event = drm_event_vblank()
        event.base.type = UInt32(DRM_EVENT_FLIP_COMPLETE)
        event.base.length = UInt32(MemoryLayout<drm_event_vblank>.size)
        event.user_data = UInt64(UInt(bitPattern: events))
        event.tv_sec = UInt32(time.rounded(.down))
        event.tv_usec = UInt32((time - time.rounded(.down)) * 1e6)
        event.sequence = 100
        let written = withUnsafeBytes(of: &event) { write(pipeEnds[1], $0.baseAddress, $0.count) }
        XCTAssertEqual(written, MemoryLayout<drm_event_vblank>.size)
    }

    func testAnEventTheOtherOutputsLinkReadIsTakenWithoutSleeping() throws {
        let first = link(crtcIndex: 0)
        let second = link(crtcIndex: 1)
        first.flipQueued()
        second.flipQueued()
        XCTAssertEqual(second.pollTimeoutMilliseconds(), -1, "waiting for its flip: the descriptor wakes it")
        sendFlipCompleted(to: second.events, at: MonotonicClock.now())
        // The first output's dispatch comes first in the loop and reads the descriptor empty.
        XCTAssertNil(try first.dispatch())
        XCTAssertTrue(first.isFlipPending, "the event was not the first output's")
        XCTAssertTrue(second.isFlipPending, "not taken yet: the second link has not looked")
        var readable = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&readable, 1, 0), 0, "nothing is left on the descriptor to wake the loop")
        XCTAssertEqual(
            second.pollTimeoutMilliseconds(), 0,
            "the event waits in the second link's block: poll() must not sleep before it is taken")
        XCTAssertNil(try second.dispatch(), "no frame was asked for: the flip completes and nothing is due")
        XCTAssertFalse(second.isFlipPending, "the second link took its flip")
        XCTAssertEqual(second.pollTimeoutMilliseconds(), -1, "and sleeps again until asked for a frame")
        XCTAssertTrue(first.isFlipPending)
    }
}
