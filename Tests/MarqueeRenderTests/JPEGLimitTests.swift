import CJPEG
import MarqueeRender
import XCTest

/// The limits that keep one hostile JPEG from holding a decoder for minutes or taking far more
/// memory than its picture: at most 100 scans, no scan outside the progression, and a
/// progressive file's coefficient buffers counted against `--image-max-pixels`. The files are
/// made by ImageMagick or written here byte by byte; each test fails quickly (the files are
/// small), so a regression shows as a decode that succeeds, not as a slow test.
final class JPEGLimitTests: XCTestCase {
    /// The byte ranges of `jpeg`'s scans, each its SOS segment and entropy-coded data.
    static func scans(of jpeg: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var at = 2
        while at + 3 < jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xD9 {
            var end = at + 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
            if jpeg[at + 1] == 0xDA {
                while end + 1 < jpeg.count,
                    !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1]))
                {
                    end += 1
                }
                ranges.append(at..<end)
            }
            at = end
        }
        return ranges
    }

    /// `jpeg` with its last scan repeated `times` more times (what the 365 KB scan bomb is:
    /// 2,000 copies of one 65-byte scan).
    static func repeatingLastScan(_ jpeg: [UInt8], times: Int) -> [UInt8] {
        let last = scans(of: jpeg).last!
        var bytes = Array(jpeg[..<last.upperBound])
        for _ in 0..<times { bytes += jpeg[last] }
        return bytes + [0xFF, 0xD9]
    }

    /// An 8x8 grey progressive JPEG of `count` scans (at most 883), all of them valid: a DC
    /// scan, then for each AC coefficient in turn a first scan of its top bit (Al 13) and the
    /// 13 scans refining it bit by bit. Every coefficient is zero: each scan is one Huffman
    /// code of one bit (a DC difference of 0, or an end of band) padded with ones. Such a file
    /// has no repeated scan, so only the scan count can stop it.
    static func progressiveJPEG(scans count: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT 0
        bytes += [0xFF, 0xC2, 0x00, 0x0B, 8, 0, 8, 0, 8, 1, 1, 0x11, 0]  // SOF2: 8x8, one component
        let oneCodeOfOneBit: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0x00]
        bytes += [0xFF, 0xC4, 0x00, 0x26, 0x00] + oneCodeOfOneBit + [0x10] + oneCodeOfOneBit  // DHT DC 0, AC 0
        var script: [(Int, Int, Int, Int)] = [(0, 0, 0, 0)]
        for k in 1...63 {
            script.append((k, k, 0, 13))
            for al in stride(from: 12, through: 0, by: -1) { script.append((k, k, al + 1, al)) }
        }
        precondition(count <= script.count)
        for (ss, se, ah, al) in script.prefix(count) {
            bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, UInt8(ss), UInt8(se), UInt8(ah << 4 | al), 0x7F]
        }
        return bytes + [0xFF, 0xD9]
    }

    static let picture = ImageTestFiles.Picture(width: 64, height: 48) { x, y in
        (UInt8(x * 4), UInt8(y * 5), 120, 255)
    }

    func testAProgressiveJPEGOfTenScansDecodes() throws {
        let files = try ImageTestFiles()
        try files.write(Self.picture, as: "p.jpg", options: ["-interlace", "JPEG", "-quality", "90"])
        let jpeg = try files.bytes("p.jpg")
        XCTAssertEqual(Self.scans(of: jpeg).count, 10)  // libjpeg's progression for colour
        let image = try ImageDecoder.decode(jpeg, maximumPixels: 1_000_000)
        XCTAssertEqual(image.width, 64)
        XCTAssertTrue(abs(image.argb(60, 2).r - 240) <= 12, "\(image.argb(60, 2))")
    }

    /// Valid progressions of 100 scans decode; of 101 and 883 scans they are refused.
    func testAJPEGOfMoreThanAHundredScansIsRefused() throws {
        let allowed = Self.progressiveJPEG(scans: 100)
        XCTAssertEqual(Self.scans(of: allowed).count, 100)
        let image = try ImageDecoder.decode(allowed, maximumPixels: 1_000_000)
        XCTAssertEqual(image.width, 8)
        XCTAssertEqual(image.argb(4, 4).a, 255)
        for count in [101, 883] {
            let jpeg = Self.progressiveJPEG(scans: count)
            XCTAssertThrowsError(try ImageDecoder.decode(jpeg, maximumPixels: 1_000_000)) { error in
                XCTAssertEqual("\(error)", "JPEG has more than 100 scans, the most Marquee decodes", "\(count)")
            }
        }
    }

    /// A scan repeated, once or 2,000 times as in the bomb, is outside the progression and fails
    /// at once (libjpeg only warns, JWRN_BOGUS_PROGRESSION, and decodes every copy).
    func testARepeatedScanIsRefused() throws {
        let files = try ImageTestFiles()
        // Flat, as the bomb's picture: the repeated scan (the last refinement of the luma's AC
        // coefficients) is then one end-of-band run over every block, which libjpeg decodes
        // without any other complaint; over a 6000x6666 picture each copy costs 27 ms.
        let flat = ImageTestFiles.Picture(width: 64, height: 48) { _, _ in (128, 128, 128, 255) }
        try files.write(flat, as: "flat.jpg", options: ["-interlace", "JPEG", "-quality", "90"])
        let jpeg = try files.bytes("flat.jpg")
        XCTAssertEqual(try ImageDecoder.decode(jpeg, maximumPixels: 1_000_000).width, 64)
        for times in [1, 2000] {
            let bomb = Self.repeatingLastScan(jpeg, times: times)
            XCTAssertEqual(Self.scans(of: bomb).count, Self.scans(of: jpeg).count + times)
            XCTAssertThrowsError(try ImageDecoder.decode(bomb, maximumPixels: 1_000_000)) { error in
                XCTAssertEqual(
                    "\(error)", "corrupt JPEG: Inconsistent progression sequence for component 0 coefficient 1",
                    "\(times)")
            }
        }
    }

    /// A progressive CMYK JPEG needs 8 bytes a pixel of coefficient buffers at full size, even
    /// when it is decoded at 1/8: with the picture decoded from them that must fit in 4 bytes x
    /// `--image-max-pixels` (docs/architecture.md), or the file fails before they are allocated.
    func testProgressiveJPEGsOverTheMemoryBoundFailAndOnesUnderItDecode() throws {
        let files = try ImageTestFiles()
        let big = ImageTestFiles.Picture(width: 1000, height: 1000) { x, y in (UInt8(x % 256), UInt8(y % 256), 90, 255)
        }
        try files.write(big, as: "cmyk.jpg", options: ["-colorspace", "CMYK", "-interlace", "JPEG", "-quality", "90"])
        try files.write(big, as: "cmyk-baseline.jpg", options: ["-colorspace", "CMYK", "-quality", "90"])
        let progressive = try files.bytes("cmyk.jpg")
        XCTAssertGreaterThan(Self.scans(of: progressive).count, 1)
        // 4 x 125 x 125 blocks x 128 bytes = 8 MB of coefficients, more than 4 x 1,000,000 bytes.
        XCTAssertThrowsError(try ImageDecoder.decode(progressive, maximumPixels: 1_000_000, drawnAt: [(100, 100)])) {
            XCTAssertEqual(
                "\($0)",
                "a 1000x1000 JPEG in several scans (progressive) needs 7.7 MiB to decode (7.6 MiB of DCT coefficients "
                    + "and the picture), more than the 3.8 MiB of 4 bytes x --image-max-pixels")
        }
        // The same file within a larger bound, and the baseline one (decoded a row of blocks at a
        // time) within the small bound.
        XCTAssertEqual(try ImageDecoder.decode(progressive, maximumPixels: 3_000_000, drawnAt: [(100, 100)]).width, 125)
        XCTAssertEqual(
            try ImageDecoder.decode(try files.bytes("cmyk-baseline.jpg"), maximumPixels: 1_000_000).width, 1000)

        // 600x400 4:2:0 colour (the bench's photos): 3 bytes a pixel of coefficients (730 KB).
        let photo = ImageTestFiles.Picture(width: 600, height: 400) { x, y in (UInt8(x % 256), UInt8(y % 256), 90, 255)
        }
        try files.write(
            photo, as: "photo.jpg", options: ["-sampling-factor", "2x2", "-interlace", "JPEG", "-quality", "85"])
        let jpeg = try files.bytes("photo.jpg")
        XCTAssertEqual(try ImageDecoder.decode(jpeg, maximumPixels: 1_000_000).width, 600)  // 1.7 of 3.8 MiB
        XCTAssertEqual(try ImageDecoder.decode(jpeg, maximumPixels: 240_000, drawnAt: [(150, 100)]).width, 150)
        // At full size, its 960 KB picture and the coefficients are more than 4 x 240,000 bytes.
        XCTAssertThrowsError(try ImageDecoder.decode(jpeg, maximumPixels: 240_000)) {
            XCTAssertTrue("\($0)".hasSuffix("of 4 bytes x --image-max-pixels"), "\($0)")
        }
    }

    /// libjpeg itself is held to what is left of the budget (`max_memory_to_use`): below a
    /// progressive file's coefficient buffers, jpeg_start_decompress fails before allocating
    /// them (libjpeg-turbo's memory manager has no temporary files), whatever Marquee's own
    /// estimate says; just above them it decodes.
    func testLibjpegIsHeldToTheMemoryLeftOfTheBudget() throws {
        let files = try ImageTestFiles()
        let big = ImageTestFiles.Picture(width: 1000, height: 1000) { x, y in (UInt8(x % 256), UInt8(y % 256), 90, 255)
        }
        try files.write(big, as: "cmyk.jpg", options: ["-colorspace", "CMYK", "-interlace", "JPEG", "-quality", "90"])
        let jpeg = try files.bytes("cmyk.jpg")
        for (limit, expected) in [(7_900_000, Int32(-1)), (8_200_000, 0)] {
            jpeg.withUnsafeBufferPointer { buffer in
                guard let decoder = marquee_jpeg_open(buffer.baseAddress, UInt(buffer.count)) else {
                    return XCTFail("out of memory")
                }
                defer { marquee_jpeg_close(decoder) }
                var width: UInt32 = 0
                var height: UInt32 = 0
                XCTAssertEqual(marquee_jpeg_prepare(decoder, 8, &width, &height), 0)
                XCTAssertEqual(marquee_jpeg_coefficient_bytes(decoder), 4 * 125 * 125 * 128)
                marquee_jpeg_limit_memory(decoder, UInt64(limit))
                var pixels = [UInt8](repeating: 0, count: Int(width * height) * 4)
                XCTAssertEqual(marquee_jpeg_decode(decoder, &pixels, Int(width) * 4), expected, "\(limit)")
                XCTAssertEqual(decoder.pointee.refused, expected == 0 ? 0 : 1, "\(limit)")
                if expected != 0 {
                    XCTAssertEqual(
                        String(cString: marquee_jpeg_message(decoder)),
                        "a 1000x1000 JPEG in several scans needs more memory to decode than 4 bytes x "
                            + "--image-max-pixels allows")
                }
            }
        }
    }
}
