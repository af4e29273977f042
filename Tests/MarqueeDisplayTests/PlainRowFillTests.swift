import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Plain frame rows written straight into scan-out memory must land as the copy of a frame of
/// that colour would: the same panel pixels, turned and converted, and nothing else written.
final class PlainRowFillTests: XCTestCase {
    func testAFillWritesWhatTheCopyOfThoseRowsWrites() {
        // Odd sizes (rows not whole lines, panel rows padded in XRGB8888), and a pixel whose
        // channels differ so that a swapped or truncated conversion shows.
        let pixel: UInt32 = 0xFF12_89EF
        for size in [PixelSize(width: 37, height: 23), PixelSize(width: 64, height: 40)] {
            let frame = PixelBuffer(width: size.width, height: size.height)
            frame.withPixels { $0.update(repeating: pixel) }
            for rotation in Rotation.allCases {
                for format in [ScanoutFormat.xrgb8888, .xbgr8888, .rgb565, .bgr565] {
                    for rows in [0..<size.height, 3..<11, 0..<1, size.height - 5..<size.height] {
                        let memory = ScanoutMemory(frameSize: size, rotation: rotation, format: format, buffers: 2)
                        FrameCopier.copy(frame, rows: rows, to: memory.surfaces[0], rotation: rotation)
                        PlainRowFill.fill(pixel, rows: rows, to: memory.surfaces[1], rotation: rotation)
                        XCTAssertEqual(
                            memory.bytes(of: 1), memory.bytes(of: 0),
                            "\(size.width)x\(size.height) rotate \(rotation.rawValue) \(format) rows \(rows)")
                    }
                }
            }
        }
    }
}
