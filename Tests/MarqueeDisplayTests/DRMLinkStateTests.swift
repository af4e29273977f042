import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// The DRM display link's decisions, fed the events a CRTC would send: which vblank it asks for,
/// which frames become due with which times, and what `display off` (a pause) and `on` do.
final class DRMLinkStateTests: XCTestCase {
    let period = 1.0 / 64  // a binary fraction: sums of it are exact

    func makeState(vblanksPerFrame: UInt32 = 1, minimumFrameInterval: Double = 0) -> DRMLinkState {
        DRMLinkState(
            refreshPeriod: period, vblanksPerFrame: vblanksPerFrame, minimumFrameInterval: minimumFrameInterval)
    }

    func testAfterIdleTheFirstFrameWaitsForTheNextVblank() {
        var state = makeState()
        XCTAssertEqual(state.requestFrame(now: 10), .next)
        state.vblankRequested()
        XCTAssertTrue(state.expectsEvent)
        XCTAssertNil(state.takeDueFrame(now: 10.001), "nothing is due before the vblank")
        XCTAssertEqual(state.pollTimeoutMilliseconds(now: 10.001), -1)
        state.vblankArrived(time: 10.010)
        XCTAssertEqual(state.pollTimeoutMilliseconds(now: 10.011), 0)
        XCTAssertEqual(
            state.takeDueFrame(now: 10.011), FrameTime(timestamp: 10.010, targetTimestamp: 10.010 + period))
        XCTAssertFalse(state.isFramePending)
    }

    func testWhileAnimatingEachFlipMakesTheNextFrameDueAtOnce() {
        var state = makeState()
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        XCTAssertNotNil(state.takeDueFrame(now: 1.001))
        state.flipQueued()
        XCTAssertNil(state.requestFrame(now: 1.005), "the flip's event will time the next frame")
        XCTAssertNil(state.flipCompleted(sequence: 61, time: 1 + period, now: 1 + period))
        XCTAssertEqual(
            state.takeDueFrame(now: 1 + period), FrameTime(timestamp: 1 + period, targetTimestamp: 1 + 2 * period))
    }

    func testMaxFPSWaitsForTheVblankAfterTheLastFlip() {
        var state = makeState(vblanksPerFrame: 2)
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        _ = state.takeDueFrame(now: 1)
        state.flipQueued()
        _ = state.requestFrame(now: 1.001)
        XCTAssertEqual(state.flipCompleted(sequence: 100, time: 1.016, now: 1.017), .sequence(101))
        state.vblankRequested()
        XCTAssertNil(state.takeDueFrame(now: 1.02))
        state.vblankArrived(time: 1.033)
        XCTAssertEqual(state.takeDueFrame(now: 1.034)?.timestamp, 1.033)
    }

    func testWithoutVblankEventsFramesAreTimedFromTheClock() {
        var state = makeState()
        XCTAssertEqual(state.requestFrame(now: 5), .next)
        state.vblankRequestFailed(now: 5)
        XCTAssertFalse(state.vblankEventsWork)
        XCTAssertEqual(state.takeDueFrame(now: 5), FrameTime(timestamp: 5, targetTimestamp: 5 + period))
        XCTAssertNil(state.requestFrame(now: 6), "no vblank is asked for again")
        XCTAssertEqual(state.takeDueFrame(now: 6)?.timestamp, 6)
    }

    func testTheRateCapHoldsAFrameBackAndTimesItFromNow() {
        var state = makeState(minimumFrameInterval: 0.1)
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        XCTAssertEqual(state.takeDueFrame(now: 1)?.timestamp, 1)
        state.flipQueued()
        _ = state.requestFrame(now: 1)
        _ = state.flipCompleted(sequence: 1, time: 1.001, now: 1.001)
        XCTAssertEqual(state.pollTimeoutMilliseconds(now: 1.001), 100)
        XCTAssertNil(state.takeDueFrame(now: 1.05))
        XCTAssertEqual(state.takeDueFrame(now: 1.1), FrameTime(timestamp: 1.1, targetTimestamp: 1.1 + period))
    }

    func testAFrameTakenLateIsTimedOnTheVblankGrid() {
        // The loop drew another output's frame for 2.5 periods after this one's flip event: the
        // frame is drawn for the vblank after now, on the grid of the flip's vblank.
        var state = makeState()
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        _ = state.takeDueFrame(now: 1)
        state.flipQueued()
        _ = state.requestFrame(now: 1.001)
        _ = state.flipCompleted(sequence: 7, time: 1 + period, now: 1 + period)
        let frame = state.takeDueFrame(now: 1 + 3.5 * period)
        XCTAssertEqual(frame?.timestamp ?? 0, 1 + 3 * period, accuracy: 1e-9)
        XCTAssertEqual(frame?.targetTimestamp ?? 0, 1 + 4 * period, accuracy: 1e-9)
    }

    // MARK: display off and on

    func testPausedTheLinkAsksForNothingAndNoFrameIsDue() {
        var state = makeState()
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        _ = state.takeDueFrame(now: 1)
        state.flipQueued()
        _ = state.requestFrame(now: 1.001)  // the scroll goes on: the next frame is asked for
        state.pause()
        XCTAssertFalse(state.expectsEvent, "no descriptor to poll: the loop sleeps")
        XCTAssertTrue(state.isFramePending, "the frame asked for waits for the display to come on")
        XCTAssertEqual(state.pollTimeoutMilliseconds(now: 2), -1, "no timeout: no busy loop while off")
        XCTAssertNil(state.takeDueFrame(now: 2))
        // The flip's event, completed late by the kernel, draws nothing.
        XCTAssertNil(state.flipCompleted(sequence: 61, time: 1.016, now: 2))
        XCTAssertNil(state.takeDueFrame(now: 2))
        XCTAssertNil(state.requestFrame(now: 3), "paused, nothing is asked of the device")
    }

    func testOnTheWaitingFrameIsDrawnAtTheNextVblankNotAnOldOne() {
        var state = makeState()
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.pause()
        XCTAssertEqual(state.resume(now: 30), .next, "the frame asked for meanwhile waits for the next vblank")
        state.vblankRequested()
        // The vblank event the kernel completed when the CRTC went off, read only now.
        state.vblankArrived(time: 0.5)
        XCTAssertNil(state.takeDueFrame(now: 30.001), "an event from before the display came on is not its vblank")
        XCTAssertTrue(state.expectsEvent, "the new vblank is still awaited")
        state.vblankArrived(time: 30.012)
        XCTAssertEqual(state.takeDueFrame(now: 30.013), FrameTime(timestamp: 30.012, targetTimestamp: 30.012 + period))
    }

    /// The vblank that answers the request made at the resume, stamped with its slot's time,
    /// which a late timer interrupt puts before the resume: it is that vblank, not an old one.
    /// Dropped, the frame waited for ever and the display froze (seen in the VM suite under load).
    func testOnTheVblankStampedJustBeforeTheResumeIsTheOneAskedFor() {
        var state = makeState()
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.pause()
        XCTAssertEqual(state.resume(now: 30), .next)
        state.vblankRequested()
        state.vblankArrived(time: 30 - 0.004)
        XCTAssertEqual(
            state.takeDueFrame(now: 30.001), FrameTime(timestamp: 29.996, targetTimestamp: 29.996 + period),
            "drawn at once, timed by the vblank it answers")
        XCTAssertFalse(state.expectsEvent, "nothing more is awaited")
    }

    func testOnWithNothingWaitingAsksForNothing() {
        var state = makeState()
        state.pause()
        XCTAssertNil(state.resume(now: 1))
        XCTAssertNil(state.resume(now: 2), "resuming twice changes nothing")
        XCTAssertEqual(state.requestFrame(now: 3), .next)
    }

    func testAfterOnMaxFPSCountsFromTheNewVblanksNotTheOldSequence() {
        var state = makeState(vblanksPerFrame: 2)
        _ = state.requestFrame(now: 0)
        state.vblankRequested()
        state.vblankArrived(time: 1)
        _ = state.takeDueFrame(now: 1)
        state.flipQueued()
        _ = state.flipCompleted(sequence: 500, time: 1.016, now: 1.016)
        state.pause()
        XCTAssertEqual(state.resume(now: 9), nil)
        XCTAssertEqual(state.requestFrame(now: 9.1), .next, "the old vblank number means nothing after off")
    }
}
