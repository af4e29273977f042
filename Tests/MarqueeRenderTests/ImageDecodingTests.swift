import Foundation
import MarqueeRender
import XCTest

/// PNG and JPEG decoding: the pixels of real files made by another encoder (ImageMagick), EXIF
/// orientation, DCT scaling, and the header checks done before anything is allocated.
final class ImageDecodingTests: XCTestCase {
    /// A picture with every kind of pixel a PNG can hold: gradients, transparency, partial alpha.
    private static let translucent = ImageTestFiles.Picture(width: 37, height: 23) { x, y in
        (UInt8(x * 7 % 256), UInt8(y * 11 % 256), UInt8((x + y) * 5 % 256), UInt8((x * 31 + y * 17) % 256))
    }

    func testPNGDecodesToTheExactPremultipliedSourcePixels() throws {
        let files = try ImageTestFiles()
        let path = try files.write(Self.translucent, as: "alpha.png", alpha: true)
        let image = try ImageDecoder.decode(try files.bytes("alpha.png"), maximumPixels: 1_000_000)
        XCTAssertEqual(image.width, 37, path)
        XCTAssertEqual(image.height, 23)
        for y in 0..<23 {
            for x in 0..<37 {
                let (r, g, b, a) = Self.translucent.pixel(x, y)
                func premultiplied(_ c: UInt8) -> Int { (Int(c) * Int(a) + 127) / 255 }
                let got = image.argb(x, y)
                XCTAssertTrue(
                    got == (Int(a), premultiplied(r), premultiplied(g), premultiplied(b)),
                    "pixel \(x),\(y): \(got) for straight \((r, g, b, a))")
            }
        }
    }

    /// A smooth opaque picture (JPEG's 8x8 blocks keep smooth content within a few levels).
    private static let smooth = ImageTestFiles.Picture(width: 64, height: 48) { x, y in
        (UInt8(x * 4), UInt8(y * 5), UInt8(128 + (x - y) / 2), 255)
    }

    /// Tolerance: quality 100 without chroma subsampling; libjpeg-turbo's decoder differs from
    /// the source by rounding only, at most 3 levels per channel.
    func testJPEGDecodesWithinThreeLevelsOfTheSource() throws {
        let files = try ImageTestFiles()
        try files.writeJPEG(Self.smooth, as: "smooth.jpg")
        let image = try ImageDecoder.decode(try files.bytes("smooth.jpg"), maximumPixels: 1_000_000)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 48)
        var worst = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let (r, g, b, _) = Self.smooth.pixel(x, y)
                let got = image.argb(x, y)
                XCTAssertEqual(got.a, 255)
                worst = max(worst, abs(got.r - Int(r)), abs(got.g - Int(g)), abs(got.b - Int(b)))
            }
        }
        XCTAssertLessThanOrEqual(worst, 3)
    }

    /// Four flat quadrants, so each corner's colour survives JPEG exactly enough to identify.
    private static let quadrants = ImageTestFiles.Picture(width: 64, height: 32) { x, y in
        switch (x < 32, y < 16) {
        case (true, true): (255, 0, 0, 255)  // top-left: red
        case (false, true): (0, 255, 0, 255)  // top-right: green
        case (true, false): (0, 0, 255, 255)  // bottom-left: blue
        case (false, false): (255, 255, 255, 255)  // bottom-right: white
        }
    }

    /// Every EXIF orientation, as the EXIF standard words them: where the stored picture's first
    /// row and first column appear on screen. The stored top-left pixel is red and the top-right
    /// one green, so the corner of the shown picture each lands in tells the turn.
    func testAllEightEXIFOrientationsAreShownUpright() throws {
        let files = try ImageTestFiles()
        let plain = try files.bytes(files.writeJPEG(Self.quadrants, as: "q.jpg").components(separatedBy: "/").last!)
        // orientation: (row 0 shown at, column 0 shown at)
        let standard: [Int: (row0: String, column0: String)] = [
            1: ("top", "left"), 2: ("top", "right"), 3: ("bottom", "right"), 4: ("bottom", "left"),
            5: ("left", "top"), 6: ("right", "top"), 7: ("right", "bottom"), 8: ("left", "bottom"),
        ]
        for (orientation, placement) in standard.sorted(by: { $0.key < $1.key }) {
            for littleEndian in [false, true] {
                let bytes = ImageTestFiles.withOrientation(plain, orientation, littleEndian: littleEndian)
                XCTAssertEqual(ExifOrientation.of(jpeg: bytes).rawValue, orientation)
                let image = try ImageDecoder.decode(bytes, maximumPixels: 1_000_000)
                let turned = orientation >= 5
                XCTAssertEqual(image.width, turned ? 32 : 64, "orientation \(orientation)")
                XCTAssertEqual(image.height, turned ? 64 : 32, "orientation \(orientation)")
                // The stored top-left pixel sits where row 0's side meets column 0's side.
                let sides = [placement.row0, placement.column0]
                let redX = sides.contains("right") ? image.width - 2 : 1
                let redY = sides.contains("bottom") ? image.height - 2 : 1
                let red = image.argb(redX, redY)
                XCTAssertTrue(red.r > 200 && red.g < 60 && red.b < 60, "orientation \(orientation): \(red)")
                // The stored top-right pixel: still on row 0's side, at the far end of column 0's.
                let opposite = ["left": "right", "right": "left", "top": "bottom", "bottom": "top"]
                let greenSides = [placement.row0, opposite[placement.column0]!]
                let greenX = greenSides.contains("right") ? image.width - 2 : 1
                let greenY = greenSides.contains("bottom") ? image.height - 2 : 1
                let green = image.argb(greenX, greenY)
                XCTAssertTrue(green.g > 200 && green.r < 60 && green.b < 60, "orientation \(orientation): \(green)")
                let size = try ImageDecoder.size(of: bytes, maximumPixels: 1_000_000)
                XCTAssertTrue(size == (image.width, image.height), "header size of orientation \(orientation)")
            }
        }
    }

    func testMalformedEXIFIsIgnoredNotTrusted() throws {
        let files = try ImageTestFiles()
        let plain = try files.bytes(files.writeJPEG(Self.quadrants, as: "q.jpg").components(separatedBy: "/").last!)
        var bytes = ImageTestFiles.withOrientation(plain, 6)
        // The IFD offset now points far beyond the segment: no orientation, no crash.
        bytes[2 + 4 + 6 + 4] = 0x7F
        XCTAssertEqual(ExifOrientation.of(jpeg: bytes), .normal)
        XCTAssertEqual(try ImageDecoder.decode(bytes, maximumPixels: 1_000_000).width, 64)
        // A segment length running past the end of the file.
        let cut = Array(ImageTestFiles.withOrientation(plain, 6).prefix(20))
        XCTAssertEqual(ExifOrientation.of(jpeg: cut), .normal)
    }

    /// The variants cameras, editors and web exports write: each decodes to the same picture.
    func testCommonPNGAndJPEGVariantsDecode() throws {
        let files = try ImageTestFiles()
        let picture = ImageTestFiles.Picture(width: 40, height: 30) { x, _ in
            x < 20 ? (200, 40, 40, 255) : (40, 40, 200, 255)
        }
        let variants: [(String, [String], gray: Bool)] = [
            ("progressive.jpg", ["-interlace", "JPEG", "-quality", "95"], false),
            ("subsampled.jpg", ["-quality", "80", "-sampling-factor", "2x2"], false),
            ("gray.jpg", ["-colorspace", "Gray", "-quality", "95"], true),
            ("cmyk.jpg", ["-colorspace", "CMYK", "-quality", "95"], false),
            ("palette.png", ["-type", "Palette"], false),
            ("deep.png", ["-depth", "16"], false),
            ("interlaced.png", ["-interlace", "PNG"], false),
            ("gray.png", ["-colorspace", "Gray"], true),
        ]
        for (name, options, gray) in variants {
            try files.write(picture, as: name, options: options)
            let image = try ImageDecoder.decode(try files.bytes(name), maximumPixels: 1_000_000)
            XCTAssertEqual(image.width, 40, name)
            XCTAssertEqual(image.height, 30, name)
            let left = image.argb(5, 15)
            let right = image.argb(35, 15)
            XCTAssertEqual(left.a, 255, name)
            if gray {
                XCTAssertTrue(abs(left.r - left.b) <= 2 && left.r > right.r + 10, "\(name): \(left) \(right)")
            } else {
                XCTAssertTrue(left.r > 180 && left.b < 60 && right.b > 180 && right.r < 60, "\(name): \(left) \(right)")
            }
        }
    }

    func testLargeJPEGIsDecodedAtReducedSizeWhenDrawnSmall() throws {
        let files = try ImageTestFiles()
        let big = ImageTestFiles.Picture(width: 800, height: 600) { x, y in (UInt8(x % 256), UInt8(y % 256), 90, 255) }
        try files.writeJPEG(big, as: "big.jpg")
        let bytes = try files.bytes("big.jpg")
        XCTAssertEqual(try ImageDecoder.decode(bytes, maximumPixels: 1_000_000, drawnAt: [(100, 75)]).width, 100)
        XCTAssertEqual(try ImageDecoder.decode(bytes, maximumPixels: 1_000_000, drawnAt: [(150, 100)]).width, 200)
        XCTAssertEqual(try ImageDecoder.decode(bytes, maximumPixels: 1_000_000, drawnAt: [(500, 300)]).width, 800)
        // the largest of several sizes decides
        XCTAssertEqual(
            try ImageDecoder.decode(bytes, maximumPixels: 1_000_000, drawnAt: [(50, 40), (300, 200)]).width, 400)
    }

    func testHugeHeadersAreRefusedBeforeDecoding() throws {
        let files = try ImageTestFiles()
        let png = ImageTestFiles.pngHeader(width: 100_000, height: 100_000)
        XCTAssertThrowsError(try ImageDecoder.decode(png, maximumPixels: 40_000_000)) { error in
            XCTAssertEqual(
                "\(error)", "100000x100000 is 10000000000 pixels, more than the 40000000 of --image-max-pixels")
        }
        XCTAssertThrowsError(
            try ImageDecoder.decode(ImageTestFiles.pngHeader(width: 40_000, height: 10), maximumPixels: 40_000_000)
        ) {
            XCTAssertEqual("\($0)", "40000x10 has a side longer than the 32000 pixels an image may have")
        }
        let jpeg = ImageTestFiles.withDeclaredSize(
            try files.bytes(files.writeJPEG(Self.quadrants, as: "q.jpg").components(separatedBy: "/").last!),
            width: 60_000, height: 60_000)
        XCTAssertThrowsError(try ImageDecoder.decode(jpeg, maximumPixels: 40_000_000)) { error in
            XCTAssertTrue("\(error)".hasPrefix("60000x60000 is 3600000000 pixels, more than"), "\(error)")
        }
    }

    func testCorruptAndTruncatedFilesAreErrors() throws {
        let files = try ImageTestFiles()
        try files.write(Self.translucent, as: "a.png", alpha: true)
        try files.writeJPEG(Self.smooth, as: "a.jpg")
        let png = try files.bytes("a.png")
        let jpeg = try files.bytes("a.jpg")
        var scrambled = jpeg
        for index in stride(from: jpeg.count / 2, to: jpeg.count - 2, by: 3) { scrambled[index] = 0xFF }
        var badPNG = png
        badPNG[png.count / 2] ^= 0x55  // a CRC or zlib check fails
        let cases: [(String, [UInt8])] = [
            ("truncated PNG", Array(png.prefix(png.count / 2))),
            ("truncated JPEG", Array(jpeg.prefix(jpeg.count / 2))),
            ("PNG signature only", Array(png.prefix(8))),
            ("JPEG markers only", [0xFF, 0xD8, 0xFF, 0xD9]),
            ("scrambled JPEG", scrambled),
            ("damaged PNG", badPNG),
            ("neither", Array("GIF89a not really".utf8)),
            ("empty", []),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try ImageDecoder.decode(bytes, maximumPixels: 1_000_000), name) { error in
                XCTAssertFalse("\(error)".isEmpty, name)
                XCTAssertFalse("\(error)".contains("\n"), name)
            }
        }
    }
}
