import Glibc
import MarqueeCore
import XCTest

@testable import MarqueeRuntime

/// Every bench scene runs and reports its line under its own name, with figures that are the
/// statistics of the frames it timed (the figures themselves are measured, never asserted).
final class BenchRunnerTests: XCTestCase {
    func testEveryScenePrintsItsLine() throws {
        for scene in BenchScene.allCases {
            // A small frame and few frames: this checks the scene and its report, not the speed.
            // The menu keeps its full width (its cards are made for it) and is shortened instead: 30
            // cards and 0.25 s a pass (it is paced in real time).
            let menu = scene == .menu1080pImages
            let (width, height, cards) = menu ? (1920, 1080, 30) : (320, 240, 200)
            let result = try BenchRunner(
                scene: scene, size: PixelSize(width: width, height: height), frames: 4, cards: cards,
                duration: menu ? 0.25 : nil
            ).run()
            let times = result.frameMilliseconds
            XCTAssertEqual(times.count, 4, scene.rawValue)
            let line = try JSONParser.parse(result.jsonLine)
            XCTAssertEqual(line["scene"], .string(scene.rawValue))
            for (field, value) in [("width", width), ("height", height), ("frames", 4), ("cards", cards)] {
                XCTAssertEqual(line[field], .number(JSONNumber(Double(value))), "\(scene.rawValue): \(field)")
            }
            func number(_ field: String) throws -> Double {
                guard case .number(let number) = try XCTUnwrap(line[field], "\(scene.rawValue): \(field)") else {
                    throw XCTSkip("\(field) is not a number")
                }
                let value = number.value
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
            if let images = result.images {
                try checkImageFigures(images, line: line, times: times, scene: scene, cards: cards)
            } else {
                XCTAssertNil(line["image_files"], "\(scene.rawValue) shows no pictures")
            }
        }
    }

    /// The figures of the scenes that show pictures: the worst frame and the second pass are the
    /// statistics of their frames; the store really decoded the bench's own files, into a cache
    /// within its bound; the files are gone after the run.
    private func checkImageFigures(
        _ images: BenchRunner.ImageFigures, line: JSONValue, times: [Double], scene: BenchScene, cards: Int
    ) throws {
        let name = scene.rawValue
        func number(_ field: String) throws -> Double {
            guard case .number(let number) = try XCTUnwrap(line[field], "\(name): \(field)") else {
                throw XCTSkip("\(field) is not a number")
            }
            return number.value
        }
        let tolerance = 0.0006
        XCTAssertEqual(try number("worst_ms"), times.max()!, accuracy: tolerance, name)
        XCTAssertEqual(times[Int(try number("worst_frame")) - 1], times.max()!, name)
        XCTAssertEqual(try number("placeholders_drawn"), Double(images.placeholdersDrawn), name)
        let files = scene == .menu1080pImages ? min(cards, BenchRunner.menuPhotos) : BenchRunner.departureLogos.count
        XCTAssertEqual(try number("image_files"), Double(files), name)
        let decodes = try number("image_decodes")
        XCTAssertGreaterThan(decodes, 0, "\(name): the store decoded the bench's files")
        XCTAssertLessThanOrEqual(decodes, Double(files), "\(name): one file shown by many cards is decoded once")
        let cached = try number("image_cache_bytes")
        XCTAssertGreaterThan(cached, 0, name)
        XCTAssertLessThanOrEqual(cached, try number("image_cache_limit_bytes"), name)
        XCTAssertGreaterThan(try number("image_cache_images"), 0, name)
        XCTAssertEqual(access(images.folder, F_OK), -1, "\(name): \(images.folder) removed after the run")
        guard scene == .menu1080pImages else {
            XCTAssertNil(line["second_pass_p50_ms"], "\(name) has one pass")
            return
        }
        let second = images.secondPassMilliseconds
        XCTAssertEqual(second.count, 4, name)
        let p50 = try number("second_pass_p50_ms")
        let p99 = try number("second_pass_p99_ms")
        XCTAssertTrue(second.contains { abs($0 - p50) <= tolerance }, "\(name): the second pass's p50 is a frame's")
        XCTAssertEqual(p99, second.max()!, accuracy: tolerance, name)
        XCTAssertEqual(try number("second_pass_worst_ms"), second.max()!, accuracy: tolerance, name)
        XCTAssertEqual(try number("second_pass_p99_over_p50"), p99 / p50, accuracy: 0.01, name)
        XCTAssertEqual(try number("second_pass_placeholders_drawn"), Double(images.secondPassPlaceholdersDrawn), name)
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
            XCTAssertEqual(number.value, time, accuracy: 0.0006)
        }
    }

    /// `--scanout` reports each of the six scan-out paths once, each with its own figures: the
    /// render and scan-out of a frame together cannot take less than the scan-out alone.
    func testScanoutReportsEveryPathOnce() throws {
        let result = try BenchRunner(
            scene: .cards1080pSlow, size: PixelSize(width: 320, height: 240), frames: 4, cards: 200,
            measuresScanout: true
        ).run()
        XCTAssertEqual(
            result.scanout.map(\.name),
            [
                "rotate 0 XRGB8888", "rotate 90 XRGB8888", "rotate 180 XRGB8888", "rotate 270 XRGB8888",
                "rotate 0 RGB565", "rotate 90 RGB565", "shadow rotate 0 XRGB8888", "shadow rotate 90 XRGB8888",
                "shadow rotate 180 XRGB8888", "shadow rotate 270 XRGB8888", "shadow rotate 0 RGB565",
                "shadow rotate 90 RGB565",
            ])
        XCTAssertEqual(result.frameMilliseconds.count, 4)
        for path in result.scanout {
            XCTAssertGreaterThanOrEqual(path.frameMilliseconds, path.scrollingMilliseconds, path.name)
            XCTAssertGreaterThanOrEqual(path.unchangedMilliseconds, 0, path.name)
        }
    }
}
