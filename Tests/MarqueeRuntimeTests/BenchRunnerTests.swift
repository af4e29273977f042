import MarqueeCore
import XCTest

@testable import MarqueeRuntime

/// Every bench scene runs and reports its line under its own name, with figures that are the
/// statistics of the frames it timed (the figures themselves are measured, never asserted).
final class BenchRunnerTests: XCTestCase {
    func testEveryScenePrintsItsLine() throws {
        for scene in BenchScene.allCases {
            // A small frame and few frames: this checks the scene and its report, not the speed.
            let result = try BenchRunner(scene: scene, size: PixelSize(width: 320, height: 240), frames: 4, cards: 200)
                .run()
            let times = result.frameMilliseconds
            XCTAssertEqual(times.count, 4, scene.rawValue)
            let line = try JSONParser.parse(result.jsonLine)
            XCTAssertEqual(line["scene"], .string(scene.rawValue))
            for (field, value) in [("width", 320.0), ("height", 240), ("frames", 4), ("cards", 200)] {
                XCTAssertEqual(line[field], .number(value), "\(scene.rawValue): \(field)")
            }
            func number(_ field: String) throws -> Double {
                guard case .number(let value) = try XCTUnwrap(line[field], "\(scene.rawValue): \(field)") else {
                    throw XCTSkip("\(field) is not a number")
                }
                XCTAssertTrue(value.isFinite && value >= 0, "\(scene.rawValue): \(field) = \(value)")
                return value
            }
            // Figures are rounded to microseconds; each is the statistic of the timed frames.
            let tolerance = 0.0006
            XCTAssertEqual(try number("mean_ms"), times.reduce(0, +) / 4, accuracy: tolerance, scene.rawValue)
            let p50 = try number("p50_ms")
            let p99 = try number("p99_ms")
            XCTAssertTrue(times.contains { abs($0 - p50) <= tolerance }, "\(scene.rawValue): p50 is a frame's time")
            XCTAssertEqual(p99, times.max()!, accuracy: tolerance, "\(scene.rawValue): p99 of 4 frames is the slowest")
            XCTAssertLessThanOrEqual(p50, p99)
            let copy = try number("frame_copy_ms")
            XCTAssertGreaterThan(copy, 0)
            XCTAssertEqual(
                try number("p50_over_copy"), result.p50 / result.frameCopyMilliseconds, accuracy: tolerance,
                scene.rawValue)
            XCTAssertNil(line["frame_ms"], "listed only when asked")
        }
    }

    /// `--frame-times`: every timed frame, in order, so a slow frame can be found by its number.
    func testFrameTimesListEveryFrameInOrder() throws {
        var result = try BenchRunner(
            scene: .cards1080pWorld, size: PixelSize(width: 320, height: 240), frames: 5, cards: 50
        ).run()
        result.listsFrameTimes = true
        let line = try JSONParser.parse(result.jsonLine)
        guard case .array(let listed) = try XCTUnwrap(line["frame_ms"]) else { return XCTFail("frame_ms: \(line)") }
        XCTAssertEqual(listed.count, 5)
        for (value, time) in zip(listed, result.frameMilliseconds) {
            guard case .number(let number) = value else { return XCTFail("\(value)") }
            XCTAssertEqual(number, time, accuracy: 0.0006)
        }
    }
}
