import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// The SIMD conversion and the line-filling quarter turn against a reference written the plain
/// way (one pixel at a time, the 5-6-5 bits spelled out): every format and rotation, odd sizes
/// that leave partial SIMD groups, partial 4x4 blocks, partial cache lines and partial tiles, and
/// bands of rows starting anywhere. Tolerance 0.
final class ScanoutConversionTests: XCTestCase {
    /// What the panel must hold at byte offset `offset` of a `bytes`-sized word for one pixel.
    private func reference(_ pixel: UInt32, _ format: ScanoutFormat) -> UInt32 {
        let red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF
        switch format {
        case .xrgb8888: return pixel
        case .xbgr8888: return (pixel & 0xFF00_0000) | (blue << 16) | (green << 8) | red
        case .rgb565: return (red >> 3) << 11 | (green >> 2) << 5 | (blue >> 3)
        case .bgr565: return (blue >> 3) << 11 | (green >> 2) << 5 | (red >> 3)
        }
    }

    /// `padding` bytes end each panel row; the buffer starts `offset` bytes after a 64-byte
    /// boundary (the quarter turn aligns its lines to the buffer's cache lines).
    private func check(
        width: Int, height: Int, band: Range<Int>, seed: UInt64, padding: Int = 12, offset baseOffset: Int = 0,
        formats: [ScanoutFormat] = [.xrgb8888, .xbgr8888, .rgb565, .bgr565]
    ) {
        let frame = PixelBuffer(width: width, height: height)
        var random = SplitMix64(seed: seed)
        frame.withPixels { pixels in
            for index in pixels.indices { pixels[index] = UInt32(truncatingIfNeeded: random.next()) }
        }
        for format in formats {
            for rotation in Rotation.allCases {
                let panel = rotation.panelSize(ofLogical: frame.size)
                let bytesPerRow = panel.width * format.bytesPerPixel + padding
                var memory = [UInt8](repeating: 0x5A, count: bytesPerRow * panel.height + 64 + baseOffset)
                // Where the surface starts in `memory`.
                var start = 0
                memory.withUnsafeMutableBytes { raw in
                    let address = Int(bitPattern: raw.baseAddress!)
                    start = (64 - address % 64) % 64 + baseOffset
                    FrameCopier.copy(
                        frame, rows: band,
                        to: ScanoutSurface(
                            base: raw.baseAddress! + start, bytesPerRow: bytesPerRow, width: panel.width,
                            height: panel.height, format: format),
                        rotation: rotation)
                }
                let outside =
                    memory[..<start].contains { $0 != 0x5A }
                    || memory[(start + bytesPerRow * panel.height)...].contains { $0 != 0x5A }
                XCTAssertFalse(outside, "\(format) \(rotation): written outside the buffer")
                var wrong = 0
                for panelY in 0..<panel.height {
                    for panelX in 0..<panel.width {
                        // Back from the panel to the frame: the inverse of each turn.
                        let (x, y) =
                            switch rotation {
                            case .none: (panelX, panelY)
                            case .quarter: (panelY, height - 1 - panelX)
                            case .half: (width - 1 - panelX, height - 1 - panelY)
                            case .threeQuarters: (width - 1 - panelY, panelX)
                            }
                        let offset = start + panelY * bytesPerRow + panelX * format.bytesPerPixel
                        var stored: UInt32 = 0
                        for byte in 0..<format.bytesPerPixel { stored |= UInt32(memory[offset + byte]) << (8 * byte) }
                        let expected =
                            band.contains(y)
                            ? reference(frame.baseAddress[y * frame.stride + x], format)
                            : (format.bytesPerPixel == 4 ? 0x5A5A_5A5A : 0x5A5A)
                        if stored != expected { wrong += 1 }
                    }
                }
                XCTAssertEqual(
                    wrong, 0,
                    "\(width)x\(height) rows \(band) \(format) \(rotation), rows of \(bytesPerRow) bytes from \(baseOffset) past a line"
                )
            }
        }
    }

    func testOddSizesMatchThePlainReference() {
        check(width: 1, height: 1, band: 0..<1, seed: 1)
        check(width: 7, height: 3, band: 0..<3, seed: 2)
        check(width: 9, height: 37, band: 1..<36, seed: 3)
        check(width: 70, height: 45, band: 0..<45, seed: 4)
        check(width: 13, height: 99, band: 3..<98, seed: 5)
    }

    /// Larger than a tile both ways, with a band that starts and ends mid-line and mid-block.
    func testFramesLargerThanATileMatchThePlainReference() {
        let columns = QuarterTurn.tileColumns, rows = QuarterTurn.bandRows
        check(width: columns + 61, height: 2 * rows + 35, band: 0..<(2 * rows + 35), seed: 6)
        check(width: 2 * columns + 45, height: rows + 43, band: 5..<(rows + 37), seed: 7)
    }

    /// Quarter turns write whole 64-byte lines of each panel row where the buffer's lines fall,
    /// frame rows before and after them in 4x4 blocks; unturned XRGB8888 rows are streamed where
    /// they start on cache lines, else go in one block copy when unpadded. Every phase of the line grid (the buffer starting anywhere in a cache
    /// line, rows a multiple of 64 bytes, unpadded, or neither), over several bands and tiles,
    /// with bands of rows starting and ending anywhere, in every format and rotation.
    func testEveryRotationMatchesThePlainReferenceWhereverTheBufferStarts() {
        let width = QuarterTurn.tileColumns + 22, height = 2 * QuarterTurn.bandRows + 13
        var seed: UInt64 = 20
        for offset in [0, 4, 8, 20, 36, 60] {
            for padding in [0, 64 - (height * 4) % 64, 12] {
                seed += 1
                check(width: width, height: height, band: 0..<height, seed: seed, padding: padding, offset: offset)
                seed += 1
                check(
                    width: width, height: height, band: 7..<(height - 18), seed: seed, padding: padding, offset: offset)
            }
        }
        // 16-bit words two bytes past a line: lines still align to the buffer's.
        check(width: 37, height: 75, band: 1..<75, seed: 40, padding: 2, offset: 2, formats: [.rgb565, .bgr565])
    }

    /// Write-combined memory flushes a whole line in one burst: the lines a quarter turn writes
    /// start on the buffer's cache lines, within one line's frame rows of where the band starts.
    func testQuarterTurnLinesStartOnCacheLines() {
        var random = SplitMix64(seed: 9)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        defer { memory.deallocate() }
        for _ in 0..<500 {
            let wordSize = random.next() % 2 == 0 ? 4 : 2
            let lineRows = QuarterTurn.lineBytes / wordSize
            let base = memory + Int(random.next() % 32) * wordSize
            let frameHeight = 1 + Int(random.next() % 2000)
            let row = Int(random.next() % UInt64(frameHeight))
            for clockwise in [true, false] {
                let first = QuarterTurn.firstLineRow(
                    from: row, frameHeight: frameHeight, base: base, wordSize: wordSize, clockwise: clockwise)
                XCTAssert((row..<(row + lineRows)).contains(first), "\(first) from \(row)")
                // The panel x where the line's pixels start in the first panel row.
                let panelX = clockwise ? frameHeight - first - lineRows : first
                XCTAssertEqual(
                    (Int(bitPattern: base) + panelX * wordSize) % QuarterTurn.lineBytes, 0,
                    "\(wordSize)-byte words, \(frameHeight) rows, from \(row), clockwise \(clockwise)")
            }
        }
    }

    /// The 16-bit conversion goes through C intrinsics (Sources/CPack565/pack565.h): every value of
    /// each channel, against the other two at the values where truncation to 5 or 6 bits changes
    /// (and the fourth byte 0, 0x80 or 0xFF, which must not leak in), equals the spelled-out
    /// formula; a row width that is not a multiple of eight takes the per-pixel tail too.
    func testSixteenBitRowsEqualTheFormulaOnEveryChannelValue() {
        let edges: [UInt32] = [0x00, 0x01, 0x03, 0x04, 0x07, 0x08, 0x7F, 0x80, 0xF7, 0xF8, 0xFB, 0xFC, 0xFF]
        var values: [UInt32] = []
        for channel in 0..<3 {
            for value in UInt32(0)...255 {
                for (index, first) in edges.enumerated() {
                    for second in edges {
                        let top: UInt32 = [0x00, 0x80, 0xFF][(index + Int(value)) % 3]
                        let others = [first, second]
                        var channels: [UInt32] = []
                        var next = 0
                        for slot in 0..<3 {
                            if slot == channel {
                                channels.append(value)
                            } else {
                                channels.append(others[next])
                                next += 1
                            }
                        }
                        values.append(top << 24 | channels[0] << 16 | channels[1] << 8 | channels[2])
                    }
                }
            }
        }
        let width = 483
        let height = (values.count + width - 1) / width
        let frame = PixelBuffer(width: width, height: height)
        frame.withPixels { pixels in
            for y in 0..<height {
                for x in 0..<width { pixels[y * frame.stride + x] = values[(y * width + x) % values.count] }
            }
        }
        for format in [ScanoutFormat.rgb565, .bgr565] {
            let bytesPerRow = width * 2 + 6
            var memory = [UInt16](repeating: 0, count: bytesPerRow / 2 * height)
            memory.withUnsafeMutableBytes { raw in
                FrameCopier.copy(
                    frame, rows: 0..<height,
                    to: ScanoutSurface(
                        base: raw.baseAddress!, bytesPerRow: bytesPerRow, width: width, height: height, format: format),
                    rotation: .none)
            }
            var wrong = 0
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = values[(y * width + x) % values.count]
                    if UInt32(memory[y * bytesPerRow / 2 + x]) != reference(pixel, format) { wrong += 1 }
                }
            }
            XCTAssertEqual(wrong, 0, "\(format)")
        }
    }
}
