import MarqueeCore
import XCTest

final class KeyframesTests: XCTestCase {
    let hue = Keyframes<Double>([.init(at: 0, value: 0), .init(at: 1, value: 0.18)])

    func testTwoStopsAtTheCheckpoints() {
        XCTAssertEqual(hue.value(at: 0), 0)
        XCTAssertEqual(hue.value(at: 0.25), 0.045, accuracy: 1e-12)
        XCTAssertEqual(hue.value(at: 0.5), 0.09, accuracy: 1e-12)
        XCTAssertEqual(hue.value(at: 0.75), 0.135, accuracy: 1e-12)
        XCTAssertEqual(hue.value(at: 1), 0.18)
    }

    func testEndValuesHoldOutsideTheStops() {
        let middle = Keyframes<Double>([.init(at: 0.2, value: 5), .init(at: 0.6, value: 9)])
        XCTAssertEqual(middle.value(at: 0), 5)
        XCTAssertEqual(middle.value(at: -3), 5)
        XCTAssertEqual(middle.value(at: 0.6), 9)
        XCTAssertEqual(middle.value(at: 1), 9)
        XCTAssertEqual(middle.value(at: 0.4), 7, accuracy: 1e-12)
    }

    func testEachStopAndBetweenSeveral() {
        let frames = Keyframes<Double>([
            .init(at: 0, value: 1), .init(at: 0.3, value: 0), .init(at: 0.6, value: 0), .init(at: 1, value: 4),
        ])
        XCTAssertEqual(frames.value(at: 0), 1)
        XCTAssertEqual(frames.value(at: 0.3), 0)
        XCTAssertEqual(frames.value(at: 0.6), 0)
        XCTAssertEqual(frames.value(at: 1), 4)
        XCTAssertEqual(frames.value(at: 0.15), 0.5, accuracy: 1e-12)
        XCTAssertEqual(frames.value(at: 0.45), 0)
        XCTAssertEqual(frames.value(at: 0.8), 2, accuracy: 1e-12)
    }

    func testTwoStopsAtOnePlaceAreAStep() {
        let step = Keyframes<Double>([
            .init(at: 0, value: 0), .init(at: 0.5, value: 1), .init(at: 0.5, value: 10), .init(at: 1, value: 20),
        ])
        XCTAssertEqual(step.value(at: 0.25), 0.5, accuracy: 1e-12)
        XCTAssertEqual(step.value(at: 0.5), 10)
        XCTAssertEqual(step.value(at: 0.75), 15, accuracy: 1e-12)
    }

    func testBackgroundHueExampleOfTheSpec() {
        // SPEC §4: hue from 0 at 0 % to 0.18 at 100 %, saturation and brightness 1.
        let background = ColorKeyframes(
            space: .hsb,
            keyframes: Keyframes([.init(at: 0, value: SIMD4(0, 1, 1, 1)), .init(at: 1, value: SIMD4(0.18, 1, 1, 1))]))
        XCTAssertEqual(background.color(at: 0), Color(red: 255, green: 0, blue: 0))
        XCTAssertEqual(background.color(at: 1), Color(hue: 0.18, saturation: 1, brightness: 1))
        XCTAssertEqual(background.color(at: 1).hexString, "#ebff00", "64.8°: just past yellow")
        XCTAssertEqual(background.color(at: 0.5).hexString, "#ff8a00")
    }

    func testRGBInterpolationAndHSBComponents() {
        let fade = ColorKeyframes(
            space: .rgb,
            keyframes: Keyframes([
                .init(at: 0, value: ColorKeyframes.components(of: Color(red: 0, green: 0, blue: 0), in: .rgb)),
                .init(
                    at: 1,
                    value: ColorKeyframes.components(of: Color(red: 200, green: 100, blue: 50, alpha: 0), in: .rgb)),
            ]))
        XCTAssertEqual(fade.color(at: 0.5), Color(red: 100, green: 50, blue: 25, alpha: 128))
        for color in [Color(hex: "#ff8c00")!, Color(hex: "#1a1a1f")!, Color(hex: "#2ea05a")!, .white, .black] {
            let hsb = ColorKeyframes.components(of: color, in: .hsb)
            XCTAssertEqual(Color(hue: hsb.x, saturation: hsb.y, brightness: hsb.z, alpha: hsb.w), color)
        }
    }
}
