import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The background fill's boxes: every pixel of the frame not under a hole is covered exactly
/// once, and no pixel under a hole is, for random holes (overlapping, touching, partly or wholly
/// off the frame).
final class UncoveredBoxesTests: XCTestCase {
    func testTheBoxesAreExactlyTheFrameOutsideTheHoles() {
        var random = SplitMix64(seed: 7)
        var uncovered = UncoveredBoxes()
        let width: Int32 = 64
        let height: Int32 = 48
        for round in 0..<300 {
            uncovered.removeAllHoles()
            var expected = [Int](repeating: 1, count: Int(width * height))
            for _ in 0..<Int(random.next() % 9) {
                let x1 = Int32(random.next() % 90) - 13
                let y1 = Int32(random.next() % 70) - 11
                let box = pixman_box32_t(
                    x1: x1, y1: y1, x2: x1 + Int32(random.next() % 40), y2: y1 + Int32(random.next() % 30))
                uncovered.addHole(box)
                for y in max(box.y1, 0)..<max(min(box.y2, height), max(box.y1, 0)) {
                    for x in max(box.x1, 0)..<max(min(box.x2, width), max(box.x1, 0)) {
                        expected[Int(y * width + x)] = 0
                    }
                }
            }
            uncovered.compute(width: width, height: height)
            var covered = [Int](repeating: 0, count: Int(width * height))
            for box in uncovered.result {
                XCTAssertTrue(box.x1 >= 0 && box.y1 >= 0 && box.x2 <= width && box.y2 <= height, "round \(round)")
                for y in box.y1..<box.y2 { for x in box.x1..<box.x2 { covered[Int(y * width + x)] += 1 } }
            }
            XCTAssertEqual(covered, expected, "round \(round)")
        }
    }
}
