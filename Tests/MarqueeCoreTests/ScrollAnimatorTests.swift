import MarqueeCore
import XCTest

final class ScrollAnimatorTests: XCTestCase {
    let period = 1.0 / 60

    func testFirstFrameDrawsStartThenFollowsCurveAndSnaps() {
        var animator = ScrollAnimator(offset: 100)
        animator.scroll(to: 1100, duration: 1, curve: .easeInOut, tag: 7)
        let start = 10.0
        XCTAssertNil(animator.advance(to: start))
        XCTAssertEqual(animator.presentedOffset, 100, "the first frame draws the starting offset")
        for k in 1..<60 {
            let f = Double(k) / 60
            XCTAssertNil(animator.advance(to: start + Double(k) * period))
            XCTAssertEqual(animator.presentedOffset, 100 + 1000 * f * f * (3 - 2 * f), accuracy: 1e-9, "frame \(k)")
        }
        let finished = animator.advance(to: start + 1)
        XCTAssertEqual(finished, ScrollFinished(tag: 7, offset: 1100, interrupted: false))
        XCTAssertEqual(animator.presentedOffset, 1100, "the end is exact")
        XCTAssertFalse(animator.isAnimating)
    }

    func testMissedFramesJumpToWhereTimeSays() {
        var animator = ScrollAnimator()
        animator.scroll(to: 1000, duration: 1, curve: .linear, tag: 1)
        _ = animator.advance(to: 0)
        _ = animator.advance(to: 0.5)  // 29 vblanks missed
        XCTAssertEqual(animator.presentedOffset, 500, accuracy: 1e-9)
    }

    func testDurationZeroJumpsOnTheNextFrame() {
        var animator = ScrollAnimator(offset: 40)
        animator.scroll(to: 900, duration: 0, curve: .easeInOut, tag: 3)
        XCTAssertEqual(animator.advance(to: 5), ScrollFinished(tag: 3, offset: 900, interrupted: false))
        XCTAssertEqual(animator.presentedOffset, 900)
    }

    func testTimeGoingBackwardsEndsAtTheTarget() {
        var animator = ScrollAnimator()
        animator.scroll(to: 600, duration: 1, curve: .linear, tag: 2)
        _ = animator.advance(to: 1)
        _ = animator.advance(to: 1.5)
        XCTAssertEqual(animator.presentedOffset, 300, accuracy: 1e-9)
        XCTAssertEqual(animator.advance(to: 1.25), ScrollFinished(tag: 2, offset: 600, interrupted: false))
        XCTAssertEqual(animator.presentedOffset, 600)
    }

    func testRetargetStartsFromPresentedOffsetWithoutJump() {
        var animator = ScrollAnimator()
        animator.scroll(to: 1000, duration: 1, curve: .linear, tag: 1)
        _ = animator.advance(to: 0)
        _ = animator.advance(to: 0.25)
        XCTAssertEqual(animator.presentedOffset, 250, accuracy: 1e-9)
        let replaced = animator.scroll(to: 0, duration: 0.5, curve: .linear, tag: 2)
        XCTAssertEqual(replaced, ScrollFinished(tag: 1, offset: 250, interrupted: true))
        XCTAssertNil(animator.advance(to: 0.25 + period))
        XCTAssertEqual(
            animator.presentedOffset, 250, accuracy: 1e-9, "the new scroll's first frame repeats the presented offset")
        _ = animator.advance(to: 0.25 + period + 0.25)
        XCTAssertEqual(animator.presentedOffset, 125, accuracy: 1e-9)
        XCTAssertEqual(animator.advance(to: 2), ScrollFinished(tag: 2, offset: 0, interrupted: false))
    }

    func testDestinationIsTheRunningTarget() {
        var animator = ScrollAnimator(offset: 10)
        XCTAssertEqual(animator.destination, 10)
        animator.scroll(to: 500, duration: 1, curve: .linear, tag: 1)
        XCTAssertEqual(animator.destination, 500)
    }

    func testAnOvershootingCurveBouncesWithinTheContentButNotPastItsEnds() {
        // cubic-bezier(0.25, 5.1, 0.25, 1) overshoots its target by far (found by the fuzzer).
        let curve = TimingCurve.cubicBezier(UnitBezier(x1: 0.25, y1: 5.1, x2: 0.25, y2: 1))
        var animator = ScrollAnimator(offset: 2_000)
        animator.scroll(to: 100, duration: 1, curve: curve, tag: 1)
        var lowest = Double.infinity
        _ = animator.advance(to: 0, within: 0...3_000)
        for k in 1...59 {
            _ = animator.advance(to: Double(k) / 60, within: 0...3_000)
            lowest = min(lowest, animator.presentedOffset)
        }
        XCTAssertEqual(lowest, 0, "the bounce is cut at the top of the content")
        // Mid-range, the same curve bounces past its target freely.
        animator = ScrollAnimator(offset: 2_000)
        animator.scroll(to: 1_500, duration: 1, curve: curve, tag: 2)
        lowest = .infinity
        _ = animator.advance(to: 0, within: 0...3_000)
        for k in 1...59 {
            _ = animator.advance(to: Double(k) / 60, within: 0...3_000)
            lowest = min(lowest, animator.presentedOffset)
        }
        XCTAssertLessThan(lowest, 1_000)
        XCTAssertGreaterThan(lowest, 0)
        // An animation that starts beyond the range (content that shrank) starts where it is.
        animator = ScrollAnimator(offset: 5_000)
        animator.scroll(to: 3_000, duration: 1, curve: .easeInOut, tag: 3)
        _ = animator.advance(to: 0, within: 0...3_000)
        _ = animator.advance(to: 1.0 / 60, within: 0...3_000)
        XCTAssertGreaterThan(animator.presentedOffset, 4_990)
    }
}
