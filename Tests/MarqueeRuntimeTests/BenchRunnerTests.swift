import MarqueeCore
import XCTest

@testable import MarqueeRuntime

/// Every bench scene runs and reports the SPEC §10 fields under its own name (the figures
/// themselves are measured, never asserted).
final class BenchRunnerTests: XCTestCase {
    func testEveryScenePrintsItsLine() throws {
        for scene in BenchScene.allCases {
            // A small frame and few frames: this checks the scene, not the speed.
            let result = try BenchRunner(scene: scene, size: PixelSize(width: 320, height: 240), frames: 4, cards: 200)
                .run()
            XCTAssertEqual(result.frameMilliseconds.count, 4, scene.rawValue)
            let line = result.jsonLine
            for field in [
                "\"scene\":\"\(scene.rawValue)\"", "\"width\":320", "\"height\":240", "\"frames\":4", "\"mean_ms\":",
                "\"p50_ms\":", "\"p99_ms\":", "\"frame_copy_ms\":", "\"p50_over_copy\":",
            ] {
                XCTAssertTrue(line.contains(field), "\(scene.rawValue): \(field) in \(line)")
            }
        }
    }
}
