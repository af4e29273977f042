import MarqueeCore
import XCTest

@testable import MarqueeRuntime

/// `bench --scanout [--band-rows N] [--scanout-path NAME]`: the display's band paths under the plain
/// names, the shadow paths and the band heights asked for under theirs; one path can be timed
/// alone, and a name no path has is an error.
final class BenchBandPathTests: XCTestCase {
    private func bench(bandRows: [Int], onlyPath: String?) -> BenchRunner {
        BenchRunner(
            scene: .cards1080p, size: PixelSize(width: 320, height: 240), frames: 4, cards: 200, measuresScanout: true,
            bandRows: bandRows, onlyPath: onlyPath)
    }

    /// The plain path names are the display's (bands of DRM's height), then the shadow paths, then
    /// the band heights asked for.
    func testDisplayPathsThenShadowThenBandHeights() throws {
        let result = try bench(bandRows: [16, 32], onlyPath: nil).run()
        let names = result.scanout.map(\.name)
        let display = [
            "rotate 0 XRGB8888", "rotate 90 XRGB8888", "rotate 180 XRGB8888", "rotate 270 XRGB8888", "rotate 0 RGB565",
            "rotate 90 RGB565",
        ]
        XCTAssertEqual(
            names,
            display + display.map { "shadow \($0)" }
                + [16, 32].flatMap { rows in display.map { "bands \(rows) \($0)" } })
        for path in result.scanout {
            // The band figure's frame is render and copies together; the copies are timed within it.
            XCTAssertGreaterThanOrEqual(path.frameMilliseconds, path.scrollingMilliseconds, path.name)
        }
    }

    func testOnePathAlone() throws {
        let result = try bench(bandRows: [32], onlyPath: "bands 32 rotate 90 RGB565").run()
        XCTAssertEqual(result.scanout.map(\.name), ["bands 32 rotate 90 RGB565"])
        XCTAssertEqual(
            try bench(bandRows: [], onlyPath: "rotate 180 XRGB8888").run().scanout.map(\.name), ["rotate 180 XRGB8888"])
        XCTAssertEqual(
            try bench(bandRows: [], onlyPath: "shadow rotate 90 XRGB8888").run().scanout.map(\.name),
            ["shadow rotate 90 XRGB8888"])
        XCTAssertThrowsError(try bench(bandRows: [], onlyPath: "bands 32 rotate 0 XRGB8888").run()) { error in
            XCTAssertTrue("\(error)".contains("no scan-out path is named"), "\(error)")
        }
    }
}
