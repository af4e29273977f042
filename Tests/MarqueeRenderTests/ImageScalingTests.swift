import Foundation
import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Scaling into a request's box: against ImageMagick's resize as the independent reference, and
/// the geometry of `fit` and the rounded corners.
final class ImageScalingTests: XCTestCase {
    /// Detail at every scale: fine stripes (which nearest or bilinear sampling would alias), a
    /// gradient and a disc.
    private static let photo = ImageTestFiles.Picture(width: 600, height: 400) { x, y in
        let stripes: UInt8 = (x / 3 + y / 5) % 2 == 0 ? 230 : 30
        let dx = x - 380
        let dy = y - 180
        let disc = dx * dx + dy * dy < 110 * 110
        return (disc ? 240 : stripes, UInt8(y * 255 / 399), disc ? 40 : UInt8(x * 255 / 599), 255)
    }

    /// Compares `image` with ImageMagick's `-scale WxH!` (area averaging: each source pixel
    /// weighed by the share of it under the output pixel, the same filter as pixman's box
    /// reconstruction and box sampling) of the same source; on a
    /// mismatch writes `NAME_err.png` (mismatching pixels magenta) beside the reference in the
    /// test's folder, kept for a person to look at.
    private func assertMatchesImageMagick(
        _ image: PixmanImage, source: String, name: String, tolerance: UInt32, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let reference = source + "." + name + ".png"
        _ = try ExternalTool.run(
            "/usr/bin/convert",
            [source, "-scale", "\(image.width)x\(image.height)!", "-strip", reference],
            package: "imagemagick")
        let expected = try PNGFile.read(reference)
        let (difference, marked) = ImageDifference.measure(
            image.frame(), against: expected, tolerance: tolerance, marking: true)
        if difference.mismatchedPixels > 0 {
            let keep = NSTemporaryDirectory() + "marquee-image-tests"
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            let errorPath = keep + "/\(name)_err.png"
            try PNGFile.write(marked!, to: errorPath)
            try? FileManager.default.removeItem(atPath: keep + "/\(name)_reference.png")
            try FileManager.default.copyItem(atPath: reference, toPath: keep + "/\(name)_reference.png")
            XCTFail(
                "\(name): \(difference.mismatchedPixels) pixels differ by more than \(tolerance) levels (worst \(difference.largestDifference)); see \(errorPath)",
                file: file, line: line)
        }
    }

    /// Tolerance 2 levels: a whole-number shrink (4x) is the plain average of 4x4 source pixels;
    /// pixman rounds the output position to 1/64 pixel and its weights to 16.16 fixed point.
    /// (Nearest or bilinear sampling of the 3-pixel stripes would differ by up to 200 levels.)
    func testShrinkingByAWholeFactorEqualsImageMagicksBoxAverage() throws {
        let files = try ImageTestFiles()
        let source = try files.write(Self.photo, as: "photo.png")
        let decoded = try ImageDecoder.decode(try files.bytes("photo.png"), maximumPixels: 1_000_000)
        let scaled = try ImageScaler.scale(decoded, to: ImageRequest(path: source, width: 150, height: 100, fit: .fill))
        try assertMatchesImageMagick(scaled, source: source, name: "shrink-4x", tolerance: 2)
    }

    /// Tolerance 2 levels: at a fractional factor (600 -> 220, 2.73x) each output pixel averages
    /// partly covered source pixels, weighed by their share, in both.
    func testShrinkingByAFractionalFactorStaysCloseToImageMagicksBoxResize() throws {
        let files = try ImageTestFiles()
        let source = try files.write(Self.photo, as: "photo.png")
        let decoded = try ImageDecoder.decode(try files.bytes("photo.png"), maximumPixels: 1_000_000)
        let scaled = try ImageScaler.scale(decoded, to: ImageRequest(path: source, width: 220, height: 146, fit: .fill))
        try assertMatchesImageMagick(scaled, source: source, name: "shrink-fraction", tolerance: 2)
    }

    /// Three bands (green | red | blue | green) in a 200x100 picture, fitted into a square.
    private static let bands = ImageTestFiles.Picture(width: 200, height: 100) { x, _ in
        switch x {
        case ..<50, 150...: (0, 255, 0, 255)
        case ..<100: (255, 0, 0, 255)
        default: (0, 0, 255, 255)
        }
    }

    private func fitted(_ fit: ImageFit, radius: Int = 0) throws -> PixmanImage {
        let files = try ImageTestFiles()
        let source = try files.write(Self.bands, as: "bands.png")
        let decoded = try ImageDecoder.decode(try files.bytes("bands.png"), maximumPixels: 1_000_000)
        return try ImageScaler.scale(
            decoded, to: ImageRequest(path: source, width: 100, height: 100, fit: fit, radius: radius))
    }

    func testContainShowsTheWholePictureCentredWithTransparentMargins() throws {
        let image = try fitted(.contain)
        XCTAssertEqual(image.width, 100)
        XCTAssertEqual(image.height, 100)
        XCTAssertEqual(image.argb(50, 10).a, 0, "margin above")
        XCTAssertEqual(image.argb(50, 90).a, 0, "margin below")
        XCTAssertTrue(image.argb(10, 50) == (255, 0, 255, 0), "left band: \(image.argb(10, 50))")
        XCTAssertTrue(image.argb(35, 50) == (255, 255, 0, 0), "red band: \(image.argb(35, 50))")
        XCTAssertTrue(image.argb(65, 50) == (255, 0, 0, 255), "blue band: \(image.argb(65, 50))")
        XCTAssertTrue(image.argb(90, 50) == (255, 0, 255, 0), "right band: \(image.argb(90, 50))")
        XCTAssertEqual(image.argb(50, 25).a, 255, "first row of the picture")
        XCTAssertEqual(image.argb(50, 24).a, 0, "last row of the margin")
    }

    func testCoverFillsTheBoxWithTheCentreOfThePicture() throws {
        let image = try fitted(.cover)
        for y in [0, 50, 99] {
            XCTAssertTrue(image.argb(1, y) == (255, 255, 0, 0), "left edge is the red band: \(image.argb(1, y))")
            XCTAssertTrue(image.argb(98, y) == (255, 0, 0, 255), "right edge is the blue band: \(image.argb(98, y))")
        }
    }

    func testFillStretchesThePictureToTheBox() throws {
        let image = try fitted(.fill)
        for y in [0, 50, 99] {
            XCTAssertTrue(image.argb(10, y) == (255, 0, 255, 0), "\(image.argb(10, y))")
            XCTAssertTrue(image.argb(35, y) == (255, 255, 0, 0), "\(image.argb(35, y))")
            XCTAssertTrue(image.argb(65, y) == (255, 0, 0, 255), "\(image.argb(65, y))")
            XCTAssertTrue(image.argb(90, y) == (255, 0, 255, 0), "\(image.argb(90, y))")
        }
    }

    func testRadiusRoundsTheCornersWithAntialiasedPremultipliedAlpha() throws {
        let image = try fitted(.fill, radius: 20)
        let corners = [(0, 0), (99, 0), (0, 99), (99, 99)]
        for (x, y) in corners { XCTAssertEqual(image.argb(x, y).a, 0, "corner \(x),\(y)") }
        XCTAssertEqual(image.argb(50, 0).a, 255, "middle of the top edge")
        XCTAssertEqual(image.argb(0, 50).a, 255, "middle of the left edge")
        XCTAssertEqual(image.argb(20, 20).a, 255, "inside the arc")
        // Along the diagonal into the top-left corner alpha never falls; across the corner the
        // arc's edge is partial alpha (anti-aliased), and every colour channel stays within
        // alpha (premultiplied).
        var previous = 0
        for i in 0..<20 {
            XCTAssertGreaterThanOrEqual(image.argb(i, i).a, previous)
            previous = image.argb(i, i).a
        }
        var partial = 0
        for y in 0..<20 {
            for x in 0..<20 {
                let pixel = image.argb(x, y)
                XCTAssertLessThanOrEqual(max(pixel.r, pixel.g, pixel.b), pixel.a)
                if pixel.a > 0 && pixel.a < 255 { partial += 1 }
            }
        }
        XCTAssertGreaterThan(partial, 20)
        // The arc: a pixel whose centre is 21 px from the arc's centre is outside, 19 px inside.
        XCTAssertEqual(image.argb(5, 5).a, 0)  // centre (5.5, 5.5): 20.5 px from (20, 20)
        XCTAssertEqual(image.argb(8, 8).a, 255)  // centre (8.5, 8.5): 16.3 px
        // With contain, the corners of the placed picture are rounded, not those of the box.
        let contained = try fitted(.contain, radius: 10)
        XCTAssertEqual(contained.argb(0, 25).a, 0)
        XCTAssertEqual(contained.argb(10, 25).a, 255)
        XCTAssertEqual(contained.argb(0, 35).a, 255)
    }

    func testAPictureAtItsBoxsSizeIsCopiedExactly() throws {
        let files = try ImageTestFiles()
        let source = try files.write(Self.photo, as: "photo.png")
        let decoded = try ImageDecoder.decode(try files.bytes("photo.png"), maximumPixels: 1_000_000)
        let same = try ImageScaler.scale(decoded, to: ImageRequest(path: source, width: 600, height: 400, fit: .cover))
        for (x, y) in [(0, 0), (1, 0), (2, 0), (3, 0), (599, 399), (380, 180), (123, 45)] {
            let (r, g, b, _) = Self.photo.pixel(x, y)
            XCTAssertTrue(same.argb(x, y) == (255, Int(r), Int(g), Int(b)), "\(x),\(y): \(same.argb(x, y))")
        }
    }

    func testEnlargingInterpolatesSmoothly() throws {
        let files = try ImageTestFiles()
        let ramp = ImageTestFiles.Picture(width: 4, height: 1) { x, _ in (UInt8(x * 80), 0, 0, 255) }
        let source = try files.write(ramp, as: "ramp.png")
        let decoded = try ImageDecoder.decode(try files.bytes("ramp.png"), maximumPixels: 1_000)
        let image = try ImageScaler.scale(decoded, to: ImageRequest(path: source, width: 40, height: 10, fit: .fill))
        // Linear between pixel centres: monotonic, with values between the source's steps.
        var previous = -1
        var between = 0
        for x in 0..<40 {
            let red = image.argb(x, 5).r
            XCTAssertGreaterThanOrEqual(red, previous)
            if red % 80 != 0 { between += 1 }
            previous = red
        }
        XCTAssertGreaterThan(between, 20)
    }
}
