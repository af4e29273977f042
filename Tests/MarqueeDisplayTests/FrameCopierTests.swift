import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// The copy from a rendered frame to scan-out memory: where each pixel lands for every
/// `--rotate`, the 16-bit formats, and that only the asked-for rows are written.
final class FrameCopierTests: XCTestCase {
    /// A 5x3 frame whose every pixel is distinct: 0xFF00XXYY.
    private func numberedFrame(width: Int = 5, height: Int = 3) -> PixelBuffer {
        let frame = PixelBuffer(width: width, height: height)
        frame.withPixels { pixels in
            for y in 0..<height { for x in 0..<width { pixels[y * width + x] = 0xFF00_0000 | UInt32(x << 8 | y) } }
        }
        return frame
    }

    private func copy(_ frame: PixelBuffer, rotation: Rotation, rows: Range<Int>? = nil) -> PixelBuffer {
        let panel = rotation.panelSize(ofLogical: frame.size)
        let image = PixelBuffer(width: panel.width, height: panel.height)
        image.withPixels { $0.update(repeating: 0xFFAB_CDEF) }
        FrameCopier.copy(frame, rows: rows ?? 0..<frame.height, to: image.surface, rotation: rotation)
        return image
    }

    func testEachRotationPutsTheTopLeftCornerWhereThePanelShowsIt() {
        let frame = numberedFrame()
        // frame (x, y) → panel position, for each rotation (clockwise).
        let expectations: [(Rotation, (Int, Int) -> (Int, Int))] = [
            (.none, { x, y in (x, y) }),
            (.quarter, { x, y in (3 - 1 - y, x) }),
            (.half, { x, y in (5 - 1 - x, 3 - 1 - y) }),
            (.threeQuarters, { x, y in (y, 5 - 1 - x) }),
        ]
        for (rotation, place) in expectations {
            let image = copy(frame, rotation: rotation)
            XCTAssertEqual(image.size, rotation.panelSize(ofLogical: frame.size), "\(rotation)")
            for y in 0..<3 {
                for x in 0..<5 {
                    let (px, py) = place(x, y)
                    XCTAssertEqual(image.pixel(x: px, y: py), frame.pixel(x: x, y: y), "\(rotation) (\(x),\(y))")
                }
            }
        }
    }

    func testAQuarterTurnAndThreeQuartersMoreAreTheFrameAgainAtTileEdges() {
        // 70x45 crosses the 32-pixel tiles in both directions.
        let frame = numberedFrame(width: 70, height: 45)
        let turned = copy(frame, rotation: .quarter)
        let back = copy(turned, rotation: .threeQuarters)
        XCTAssertEqual(back.size, frame.size)
        for y in 0..<45 { for x in 0..<70 { XCTAssertEqual(back.pixel(x: x, y: y), frame.pixel(x: x, y: y)) } }
    }

    /// Every rotation moves four pixels at a time (quarter turns through 4x4 transposes within
    /// tiles), one by one at the edges: every pixel of a frame larger than a tile, with odd sizes
    /// and a band of rows not aligned to four, must land where the panel shows it, in every
    /// scan-out format, and nothing outside the band may be written.
    func testEveryRotationPlacesEveryPixelInEveryFormat() {
        // An odd width, and one of whole blocks of four (the half turn streams only those).
        for width in [2 * QuarterTurn.tileColumns + 45, 2 * QuarterTurn.tileColumns + 44] {
            checkEveryRotationPlacesEveryPixelInEveryFormat(width: width, height: QuarterTurn.bandRows + 43)
        }
    }

    private func checkEveryRotationPlacesEveryPixelInEveryFormat(width: Int, height: Int) {
        let frame = PixelBuffer(width: width, height: height)
        var random = SplitMix64(seed: 3)
        // Every byte random, the fourth included (`pixel(x:y:)` hides it; the copy must not).
        var values = [UInt32](repeating: 0, count: width * height)
        for index in values.indices { values[index] = UInt32(truncatingIfNeeded: random.next()) }
        frame.withPixels { pixels in
            for y in 0..<height { for x in 0..<width { pixels[y * frame.stride + x] = values[y * width + x] } }
        }
        let band = 5..<(height - 6)
        // Padded rows (as some panels have: stores not aligned, so never streamed), and
        // rows in whole 64-byte lines from an aligned base (as DRM's dumb buffers: streamed).
        for lineAligned in [false, true] {
            for format in [ScanoutFormat.xrgb8888, .xbgr8888, .rgb565, .bgr565] {
                for rotation in Rotation.allCases {
                    let panel = rotation.panelSize(ofLogical: frame.size)
                    let rowBytes = panel.width * format.bytesPerPixel
                    // Padded by 8 bytes, or 12 where 8 would make whole 16-byte blocks.
                    let padded = (rowBytes + 8) % 16 == 0 ? rowBytes + 12 : rowBytes + 8
                    let bytesPerRow = lineAligned ? (rowBytes + 63) / 64 * 64 : padded
                    let memory = copied(
                        frame, rows: band, rotation: rotation, format: format, bytesPerRow: bytesPerRow)
                    XCTAssertEqual(
                        StreamingStore.allowed(base: memory.base, bytesPerRow: bytesPerRow), lineAligned,
                        "the layouts tried are the streamed and the stored ones")
                    XCTAssertEqual(
                        wrongPixels(
                            values, width: width, height: height, band: band, rotation: rotation, format: format,
                            memory: memory.bytes, bytesPerRow: bytesPerRow),
                        0,
                        "\(width)x\(height) \(format) \(rotation), rows \(lineAligned ? "in whole lines" : "padded")"
                    )
                    memory.base.deallocate()
                }
            }
        }
    }

    /// `frame`'s rows `band` copied into fresh scan-out memory (64-byte aligned, every byte 0xAB
    /// first): its base and its bytes.
    private func copied(
        _ frame: PixelBuffer, rows band: Range<Int>, rotation: Rotation, format: ScanoutFormat, bytesPerRow: Int
    ) -> (base: UnsafeMutableRawPointer, bytes: [UInt8]) {
        let panel = rotation.panelSize(ofLogical: frame.size)
        let count = bytesPerRow * panel.height
        let base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
        base.initializeMemory(as: UInt8.self, repeating: 0xAB, count: count)
        let surface = ScanoutSurface(
            base: base, bytesPerRow: bytesPerRow, width: panel.width, height: panel.height, format: format)
        FrameCopier.copy(frame, rows: band, to: surface, rotation: rotation)
        return (base, Array(UnsafeRawBufferPointer(start: base, count: count)))
    }

    /// How many frame pixels are not where the panel shows them, encoded, with 0xAB bytes left
    /// outside `band`.
    private func wrongPixels(
        _ values: [UInt32], width: Int, height: Int, band: Range<Int>, rotation: Rotation, format: ScanoutFormat,
        memory: [UInt8], bytesPerRow: Int
    ) -> Int {
        var wrong = 0
        for y in 0..<height {
            for x in 0..<width {
                let (panelX, panelY) =
                    switch rotation {
                    case .none: (x, y)
                    case .quarter: (height - 1 - y, x)
                    case .half: (width - 1 - x, height - 1 - y)
                    case .threeQuarters: (y, width - 1 - x)
                    }
                let offset = panelY * bytesPerRow + panelX * format.bytesPerPixel
                let stored = (0..<format.bytesPerPixel).reduce(UInt32(0)) { word, byte in
                    word | UInt32(memory[offset + byte]) << (8 * byte)
                }
                let pixel = values[y * width + x]
                let expected: UInt32
                if !band.contains(y) {
                    expected = format.bytesPerPixel == 4 ? 0xABAB_ABAB : 0xABAB
                } else {
                    switch format {
                    case .xrgb8888: expected = XRGB8888Encoding.encode(pixel)
                    case .xbgr8888: expected = XBGR8888Encoding.encode(pixel)
                    case .rgb565: expected = UInt32(RGB565Encoding.encode(pixel))
                    case .bgr565: expected = UInt32(BGR565Encoding.encode(pixel))
                    }
                }
                if stored != expected { wrong += 1 }
            }
        }
        return wrong
    }

    func testOnlyTheGivenRowsAreWritten() {
        let frame = numberedFrame()
        for rotation in Rotation.allCases {
            let image = copy(frame, rotation: rotation, rows: 1..<2)
            var written = 0
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixel(x: x, y: y) != 0xAB_CDEF {
                    written += 1
                    XCTAssertEqual(image.pixel(x: x, y: y) & 0xFF, 1, "\(rotation): only frame row 1 lands")
                }
            }
            XCTAssertEqual(written, 5, "\(rotation)")
        }
    }

    func testSixteenBitFormatsKeepTheTopBitsOfEachChannel() {
        let frame = PixelBuffer(width: 4, height: 1)
        let colours: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF12_3456]
        frame.withPixels { for (index, colour) in colours.enumerated() { $0[index] = colour } }
        var memory = [UInt16](repeating: 0, count: 4)
        memory.withUnsafeMutableBytes { raw in
            FrameCopier.copy(
                frame, rows: 0..<1,
                to: ScanoutSurface(base: raw.baseAddress!, bytesPerRow: 8, width: 4, height: 1, format: .rgb565),
                rotation: .none)
        }
        XCTAssertEqual(memory, [0xF800, 0x07E0, 0x001F, (0x12 >> 3) << 11 | (0x34 >> 2) << 5 | (0x56 >> 3)])
        memory.withUnsafeMutableBytes { raw in
            let read = FrameCopier.read(
                ScanoutSurface(base: raw.baseAddress!, bytesPerRow: 8, width: 4, height: 1, format: .rgb565))
            XCTAssertEqual(read.pixel(x: 0, y: 0), 0xFF_0000, "full red reads back as 255")
            for (index, colour) in colours.enumerated() {
                XCTAssertLessThanOrEqual(channelDistance(read.pixel(x: index, y: 0), colour), 7)
            }
        }
        // BGR565: blue in the top bits.
        memory.withUnsafeMutableBytes { raw in
            FrameCopier.copy(
                frame, rows: 0..<1,
                to: ScanoutSurface(base: raw.baseAddress!, bytesPerRow: 8, width: 4, height: 1, format: .bgr565),
                rotation: .none)
        }
        XCTAssertEqual(Array(memory[0..<3]), [0x001F, 0x07E0, 0xF800])
    }

    func testXBGR8888SwapsRedAndBlue() {
        let frame = PixelBuffer(width: 1, height: 1)
        frame.withPixels { $0[0] = 0xFF11_2233 }
        var memory: [UInt32] = [0]
        memory.withUnsafeMutableBytes { raw in
            let surface = ScanoutSurface(base: raw.baseAddress!, bytesPerRow: 4, width: 1, height: 1, format: .xbgr8888)
            FrameCopier.copy(frame, rows: 0..<1, to: surface, rotation: .none)
            XCTAssertEqual(FrameCopier.read(surface).pixel(x: 0, y: 0), 0x11_2233)
        }
        XCTAssertEqual(memory[0], 0xFF33_2211)
    }

    private func channelDistance(_ a: UInt32, _ b: UInt32) -> UInt32 {
        [0, 8, 16].map { shift -> UInt32 in
            let left = (a >> UInt32(shift)) & 0xFF, right = (b >> UInt32(shift)) & 0xFF
            return left > right ? left - right : right - left
        }.max()!
    }
}
