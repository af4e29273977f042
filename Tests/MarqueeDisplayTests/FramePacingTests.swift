import XCTest

@testable import MarqueeDisplay

/// How `--max-fps` and the display's rate become vblanks per frame and a wall-clock floor, for
/// every display link.
final class FramePacingTests: XCTestCase {
    func testMaxFPSSkipsWholeVblanks() {
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: nil).vblanksPerFrame, 1)
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: 60).vblanksPerFrame, 1)
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: 120).vblanksPerFrame, 1)
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: 30).vblanksPerFrame, 2)
        XCTAssertEqual(FramePacing(refreshRate: 59.94, maximumFramesPerSecond: 30).vblanksPerFrame, 2)
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: 25).vblanksPerFrame, 3)
        XCTAssertEqual(
            FramePacing(refreshRate: 60, maximumFramesPerSecond: 30, countsVblanks: false).vblanksPerFrame, 1,
            "untrusted vblanks are not counted")
        XCTAssertEqual(
            FramePacing(refreshRate: 60, maximumFramesPerSecond: 30).minimumFrameInterval, 0.03, accuracy: 1e-12)
        XCTAssertEqual(
            FramePacing(refreshRate: 50, maximumFramesPerSecond: nil).minimumFrameInterval, 0.018, accuracy: 1e-12)
    }

    func testOnlyRatesAPanelCanHaveAreTrusted() {
        XCTAssertEqual(FramePacing.plausibleRate(60.0038), 60.0038)
        XCTAssertNil(FramePacing.plausibleRate(nil))
        XCTAssertNil(FramePacing.plausibleRate(0.5))
        XCTAssertNil(FramePacing.plausibleRate(1000))
        XCTAssertEqual(FramePacing.hertz(60.0038), "60")
        XCTAssertEqual(FramePacing.hertz(59.9401), "59.94")
        XCTAssertEqual(FramePacing.hertz(110.0703), "110.07")
    }

    /// Rates and caps from outside (flags, drivers) never trap a conversion: messages print them as
    /// they are and pacing holds a tiny cap to a finite number of vblanks.
    func testExtremeRatesAndCapsDoNotTrap() {
        XCTAssertEqual(FramePacing.hertz(.infinity), "inf")
        XCTAssertEqual(FramePacing.hertz(1e300), "1e+300")
        XCTAssertEqual(FramePacing(refreshRate: 60, maximumFramesPerSecond: 1e-300).vblanksPerFrame, 1_000_000)
    }
}
