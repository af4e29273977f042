import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// The copies that write the band renderer's spans from registers (`ConstantSpans`): into
/// scan-out memory laid out as DRM's, unturned and turned by half, they must write the bytes the
/// same copy writes from the band with the spans written into it first; a copy that takes no
/// spans is given the band with them written in.
final class SpanCopyTests: XCTestCase {
    func testSpansCopiedFromRegistersEqualTheBandWithThemWrittenIn() {
        var generator = SystemRandomNumberGenerator()
        // Widths on and off the line grid (a half turn's lines then start `width % 16` in).
        for width in [16, 64, 100, 636, 1920, 1916] {
            for rotation in [Rotation.none, .half] {
                let height = 40
                let size = PixelSize(width: width, height: height)
                let withSpans = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
                let plain = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
                let surface = withSpans.surfaces[0]
                guard
                    let spans = FrameCopier.spans(
                        keeping: nil, bandRows: 32, surface: surface, frameWidth: width, rotation: rotation)
                else { return XCTFail("\(width) wide, turned \(rotation.rawValue): the copy takes no spans") }
                XCTAssertEqual(spans.phase, rotation == .half ? width % 16 : 0)
                let band = PixelBuffer(width: width, height: height)
                band.withPixels { pixels in
                    for index in pixels.indices { pixels[index] = UInt32.random(in: 0...UInt32.max, using: &generator) }
                }
                let window = 5..<37
                spans.begin(window: window, of: band)
                // One fill across the whole width (whole lines from 32 pixels on), then random ones.
                spans.fill(columns: 0..<width, rows: 10..<30, pixel: 0xFF80_4020)
                for _ in 0..<12 {
                    let x0 = Int.random(in: 0..<width, using: &generator)
                    let x1 = Int.random(in: x0...width, using: &generator)
                    let y0 = Int.random(in: 0..<height, using: &generator)
                    spans.fill(
                        columns: x0..<x1, rows: y0..<Int.random(in: y0...height, using: &generator),
                        pixel: UInt32.random(in: 0...UInt32.max, using: &generator))
                }
                if width >= 32 { XCTAssertFalse(spans.isEmpty, "\(width) wide: no span to copy") }
                FrameCopier.copy(band, rows: 0..<height, to: surface, rotation: rotation, spans: spans)
                spans.materializeAll()
                FrameCopier.copy(band, rows: 0..<height, to: plain.surfaces[0], rotation: rotation)
                XCTAssertEqual(
                    withSpans.bytes(of: 0), plain.bytes(of: 0), "\(width) wide, turned \(rotation.rawValue)")
            }
        }
    }

    /// Quarter turns and RGB565 take no spans; given a table anyway, they copy the band with its
    /// spans written in.
    func testACopyThatTakesNoSpansGetsThemWrittenIntoTheBand() {
        let size = PixelSize(width: 64, height: 32)
        for (rotation, format) in [(Rotation.quarter, ScanoutFormat.xrgb8888), (.none, .rgb565)] {
            let memory = ScanoutMemory(frameSize: size, rotation: rotation, format: format, buffers: 2)
            XCTAssertNil(
                FrameCopier.spans(
                    keeping: nil, bandRows: 32, surface: memory.surfaces[0], frameWidth: 64, rotation: rotation))
            let band = PixelBuffer(width: 64, height: 32)
            let spans = ConstantSpans(rows: 32, linePixels: 16, phase: 0)
            spans.begin(window: 0..<32, of: band)
            spans.fill(columns: 0..<64, rows: 0..<32, pixel: 0xFF12_3456)
            FrameCopier.copy(band, rows: 0..<32, to: memory.surfaces[0], rotation: rotation, spans: spans)
            let filled = PixelBuffer(width: 64, height: 32)
            filled.withPixels { $0.update(repeating: 0xFF12_3456) }
            FrameCopier.copy(filled, rows: 0..<32, to: memory.surfaces[1], rotation: rotation)
            XCTAssertEqual(memory.bytes(of: 0), memory.bytes(of: 1), "turned \(rotation.rawValue), \(format)")
        }
    }
}
