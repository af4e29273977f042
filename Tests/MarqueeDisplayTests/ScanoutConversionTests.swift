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

    private func check(width: Int, height: Int, band: Range<Int>, seed: UInt64) {
        let frame = PixelBuffer(width: width, height: height)
        var random = SplitMix64(seed: seed)
        frame.withPixels { pixels in
            for index in pixels.indices { pixels[index] = UInt32(truncatingIfNeeded: random.next()) }
        }
        for format in [ScanoutFormat.xrgb8888, .xbgr8888, .rgb565, .bgr565] {
            for rotation in Rotation.allCases {
                let panel = rotation.panelSize(ofLogical: frame.size)
                let bytesPerRow = panel.width * format.bytesPerPixel + 12  // padded, not a multiple of 16
                var memory = [UInt8](repeating: 0x5A, count: bytesPerRow * panel.height)
                memory.withUnsafeMutableBytes { raw in
                    FrameCopier.copy(
                        frame, rows: band,
                        to: ScanoutSurface(
                            base: raw.baseAddress!, bytesPerRow: bytesPerRow, width: panel.width,
                            height: panel.height, format: format),
                        rotation: rotation)
                }
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
                        let offset = panelY * bytesPerRow + panelX * format.bytesPerPixel
                        var stored: UInt32 = 0
                        for byte in 0..<format.bytesPerPixel { stored |= UInt32(memory[offset + byte]) << (8 * byte) }
                        let expected =
                            band.contains(y)
                            ? reference(frame.baseAddress[y * frame.stride + x], format)
                            : (format.bytesPerPixel == 4 ? 0x5A5A_5A5A : 0x5A5A)
                        if stored != expected { wrong += 1 }
                    }
                }
                XCTAssertEqual(wrong, 0, "\(width)x\(height) rows \(band) \(format) \(rotation)")
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
        let side = FrameCopier.tile
        check(width: side + 61, height: 2 * side + 35, band: 0..<(2 * side + 35), seed: 6)
        check(width: 2 * side + 45, height: side + 43, band: 5..<(side + 37), seed: 7)
    }
}
