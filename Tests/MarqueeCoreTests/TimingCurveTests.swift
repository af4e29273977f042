import MarqueeCore
import XCTest

final class TimingCurveTests: XCTestCase {
    let checkpoints = [0.0, 0.25, 0.5, 0.75, 1.0]

    func testEaseInOutIsSmoothstep() {
        let expected = [0.0, 0.15625, 0.5, 0.84375, 1.0]
        for (f, value) in zip(checkpoints, expected) {
            XCTAssertEqual(TimingCurve.easeInOut.value(at: f), value, accuracy: 1e-12)
        }
    }

    func testLinearEaseInEaseOut() {
        for f in checkpoints {
            XCTAssertEqual(TimingCurve.linear.value(at: f), f)
            XCTAssertEqual(TimingCurve.easeIn.value(at: f), f * f, accuracy: 1e-12)
            XCTAssertEqual(TimingCurve.easeOut.value(at: f), 1 - (1 - f) * (1 - f), accuracy: 1e-12)
        }
    }

    func testProgressOutsideUnitIntervalIsClamped() {
        XCTAssertEqual(TimingCurve.easeInOut.value(at: -0.5), 0)
        XCTAssertEqual(TimingCurve.easeInOut.value(at: 1.5), 1)
    }

    func testCubicBezierSolvesForX() throws {
        // cubic-bezier(0,0,1,1) is the identity.
        let identity = try XCTUnwrap(TimingCurve(name: "cubic-bezier(0,0,1,1)"))
        for f in stride(from: 0.0, through: 1.0, by: 0.05) { XCTAssertEqual(identity.value(at: f), f, accuracy: 1e-7) }
        // CSS "ease" (0.25, 0.1, 0.25, 1): reference values computed by bisection on the polynomial.
        let ease = try XCTUnwrap(TimingCurve(name: "cubic-bezier(0.25, 0.1, 0.25, 1)"))
        XCTAssertEqual(ease.value(at: 0.25), 0.4085, accuracy: 1e-4)
        XCTAssertEqual(ease.value(at: 0.5), 0.8024, accuracy: 1e-4)
        XCTAssertEqual(ease.value(at: 0.75), 0.9605, accuracy: 1e-4)
        // A symmetric curve passes through the middle.
        let symmetric = try XCTUnwrap(TimingCurve(name: "cubic-bezier(0.42,0,0.58,1)"))
        XCTAssertEqual(symmetric.value(at: 0.5), 0.5, accuracy: 1e-9)
        XCTAssertEqual(symmetric.value(at: 0), 0)
        XCTAssertEqual(symmetric.value(at: 1), 1)
    }

    func testCubicBezierWithFlatSlopeStillConverges() throws {
        let steep = try XCTUnwrap(TimingCurve(name: "cubic-bezier(1,0,0,1)"))
        var previous = 0.0
        for f in stride(from: 0.0, through: 1.0, by: 0.01) {
            let value = steep.value(at: f)
            XCTAssertGreaterThanOrEqual(value + 1e-9, previous, "monotonic at \(f)")
            previous = value
        }
        XCTAssertEqual(steep.value(at: 0.5), 0.5, accuracy: 1e-6)
    }

    func testCurveNames() {
        XCTAssertEqual(TimingCurve(name: "ease-in-out"), .easeInOut)
        XCTAssertEqual(TimingCurve(name: "linear"), .linear)
        XCTAssertNil(TimingCurve(name: "bounce"))
        XCTAssertNil(TimingCurve(name: "cubic-bezier(1.5,0,0,1)"), "x1 outside [0, 1] is not monotonic in x")
        XCTAssertNil(TimingCurve(name: "cubic-bezier(0,0,1)"))
        XCTAssertNil(TimingCurve(name: "cubic-bezier(nan,0,1,1)"))
    }
}
