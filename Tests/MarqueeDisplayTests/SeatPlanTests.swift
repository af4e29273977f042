import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// What a switch to another virtual terminal and back makes the DRM backend do under `--seat`
/// (no seat manager, no device): the steps `SeatPlan` returns, and the display link those steps
/// drive, fed the events a CRTC would send.
final class SeatPlanTests: XCTestCase {
    func testAwayWhileShowingStopsFramesBeforeAcknowledging() {
        var plan = SeatPlan()
        XCTAssertEqual(
            plan.handle(.disabled, poweredOn: true, connected: true), [.stopFrames, .acknowledge],
            "the flip in flight completes before the seat manager takes DRM master away")
        XCTAssertFalse(plan.isActive)
    }

    func testBackWhileShowingSetsTheModeThenResumesFrames() {
        var plan = SeatPlan()
        _ = plan.handle(.disabled, poweredOn: true, connected: true)
        XCTAssertEqual(
            plan.handle(.enabled, poweredOn: true, connected: true), [.setMode, .resumeFrames],
            "the other VT's program left the CRTC as it liked: a full modeset first")
        XCTAssertTrue(plan.isActive)
    }

    func testTheEnableThatOpensTheSeatDoesNothing() {
        var plan = SeatPlan()
        XCTAssertEqual(plan.handle(.enabled, poweredOn: true, connected: true), [])
        XCTAssertTrue(plan.isActive)
    }

    func testADisplayOffOrUnpluggedStaysSoAcrossTheSwitch() {
        for (poweredOn, connected) in [(false, true), (true, false), (false, false)] {
            var plan = SeatPlan()
            XCTAssertEqual(
                plan.handle(.disabled, poweredOn: poweredOn, connected: connected), [.acknowledge],
                "the link is paused already (on \(poweredOn), connected \(connected)); the switch is still acknowledged"
            )
            XCTAssertEqual(
                plan.handle(.enabled, poweredOn: poweredOn, connected: connected), [],
                "no mode set: display on, or the reconnect, sets it")
            XCTAssertTrue(plan.isActive)
        }
    }

    func testTheDisplayTurnedOnWhileAwayIsSetWhenTheSeatComesBack() {
        var plan = SeatPlan()
        _ = plan.handle(.disabled, poweredOn: false, connected: true)
        // `display on` while away only notes it (DRMBackend.setPower); the mode waits for the seat.
        XCTAssertEqual(plan.handle(.enabled, poweredOn: true, connected: true), [.setMode, .resumeFrames])
    }

    func testARepeatedEventChangesNothing() {
        var plan = SeatPlan()
        _ = plan.handle(.disabled, poweredOn: true, connected: true)
        XCTAssertEqual(plan.handle(.disabled, poweredOn: true, connected: true), [], "acknowledged once only")
        _ = plan.handle(.enabled, poweredOn: true, connected: true)
        XCTAssertEqual(plan.handle(.enabled, poweredOn: true, connected: true), [])
    }

    /// A scroll runs; the VT is switched away and back: no frame while away (nothing asked of the
    /// device), and back, the current frame at the first vblank of the CRTC set again.
    func testAScrollPausesWhileAwayAndResumesOnTheNewVblanks() {
        let period = 1.0 / 64
        var link = DRMLinkState(refreshPeriod: period, vblanksPerFrame: 1, minimumFrameInterval: 0)
        var plan = SeatPlan()
        func perform(_ steps: [SeatPlan.Step], now: Double) -> DRMLinkState.VblankRequest? {
            var request: DRMLinkState.VblankRequest?
            for step in steps {
                switch step {
                case .stopFrames: link.pause()
                case .resumeFrames: request = link.resume(now: now)
                case .acknowledge, .setMode: break
                }
            }
            return request
        }
        // Animating: frame due at each flip.
        XCTAssertEqual(link.requestFrame(now: 0), .next)
        link.vblankRequested()
        link.vblankArrived(time: 0.010)
        XCTAssertNotNil(link.takeDueFrame(now: 0.011))
        link.flipQueued()
        _ = link.requestFrame(now: 0.012)
        // Away (the flip was waited for by DRMDisplayLink.pause).
        XCTAssertNil(perform(plan.handle(.disabled, poweredOn: true, connected: true), now: 0.02))
        XCTAssertFalse(link.expectsEvent, "away, nothing is polled on the device")
        XCTAssertEqual(link.pollTimeoutMilliseconds(now: 1), -1, "and no timer: the loop sleeps")
        XCTAssertNil(link.requestFrame(now: 2), "the scroll's frames are not asked of the device")
        XCTAssertNil(link.takeDueFrame(now: 3))
        // Back at 5 s: the frame waits for the next vblank, not one from before the switch.
        XCTAssertEqual(perform(plan.handle(.enabled, poweredOn: true, connected: true), now: 5), .next)
        link.vblankRequested()
        XCTAssertNil(link.flipCompleted(sequence: 7, time: 0.026, now: 5.001))
        XCTAssertNil(link.takeDueFrame(now: 5.001), "the flip from before the switch draws nothing")
        link.vblankArrived(time: 5.004)
        XCTAssertEqual(link.takeDueFrame(now: 5.005), FrameTime(timestamp: 5.004, targetTimestamp: 5.004 + period))
    }

    // Several outputs on one card (`--connector` twice): the seat is the card's.

    func testAwayStopsEveryOutputBeforeTheOneAcknowledge() {
        var plans = [SeatPlan(), SeatPlan()]
        XCTAssertEqual(
            SeatPlan.cardSteps(.disabled, plans: &plans, poweredOn: [true, true], connected: [true, true]),
            [.output(0, .stopFrames), .output(1, .stopFrames), .acknowledge],
            "the seat manager takes every CRTC once told: both flips in flight complete first, one acknowledge")
        XCTAssertEqual(plans.map(\.isActive), [false, false])
    }

    func testBackSetsEveryShowingOutputsModeAndResumesIt() {
        var plans = [SeatPlan(), SeatPlan()]
        _ = SeatPlan.cardSteps(.disabled, plans: &plans, poweredOn: [true, true], connected: [true, true])
        XCTAssertEqual(
            SeatPlan.cardSteps(.enabled, plans: &plans, poweredOn: [true, true], connected: [true, true]),
            [.output(0, .setMode), .output(0, .resumeFrames), .output(1, .setMode), .output(1, .resumeFrames)])
        XCTAssertEqual(plans.map(\.isActive), [true, true])
    }

    func testAnUnpluggedOutputStaysDarkWhileTheOtherComesBack() {
        var plans = [SeatPlan(), SeatPlan()]
        XCTAssertEqual(
            SeatPlan.cardSteps(.disabled, plans: &plans, poweredOn: [true, true], connected: [true, false]),
            [.output(0, .stopFrames), .acknowledge],
            "the unplugged output's link is paused already; the switch is acknowledged all the same")
        XCTAssertEqual(
            SeatPlan.cardSteps(.enabled, plans: &plans, poweredOn: [true, true], connected: [true, false]),
            [.output(0, .setMode), .output(0, .resumeFrames)], "a reconnect sets the second one's mode")
        XCTAssertEqual(plans.map(\.isActive), [true, true], "the seat is back for both all the same")
    }

    func testEveryOutputOffStillAcknowledgesOnce() {
        var plans = [SeatPlan(), SeatPlan()]
        XCTAssertEqual(
            SeatPlan.cardSteps(.disabled, plans: &plans, poweredOn: [false, false], connected: [true, true]),
            [.acknowledge])
        XCTAssertEqual(
            SeatPlan.cardSteps(.disabled, plans: &plans, poweredOn: [false, false], connected: [true, true]), [],
            "a repeated disable: nothing")
        XCTAssertEqual(
            SeatPlan.cardSteps(.enabled, plans: &plans, poweredOn: [false, false], connected: [true, true]), [])
    }
}
