import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// `Session.draw` on a backend that takes frames in bands (as DRM does): the frames reach the
/// backend's scan-out buffers equal to the byte to whole frames copied out, turned a quarter to
/// RGB565 as a portrait panel would be; a frame equal to the one on screen is neither drawn nor
/// flipped; a render failure is reported as one.
final class SessionBandsTests: XCTestCase {
    /// Scan-out buffers in memory behind the `BandedScanout` seam (the DRM backend's real one
    /// needs a DRM device: the VM suite drives it).
    private final class BandedMemoryBackend: DisplayBackend, BandedScanout {
        let software: SoftwareBackend
        let scanout: BandScanout
        var flips = 0
        var unchanged = 0

        init(size: PixelSize) {
            software = SoftwareBackend(size: size, refreshRate: 60, realtime: false)
            scanout = BandScanout(frameSize: size, rotation: .quarter, format: .rgb565)
        }

        var name: String { "banded memory" }
        var size: PixelSize { software.size }
        var displayLink: DisplayLink { software.displayLink }
        func frameBuffer() -> PixelBuffer { software.frameBuffer() }
        func present(_ buffer: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError) {
            XCTFail("a banded backend is drawn through presentInBands")
        }
        func presentedFrame() -> PixelBuffer? { nil }
        func restore() {}
        var bandRows: Int { 64 }
        var bandPhase: Int { FrameCopier.bandPhase(frameHeight: size.height, rows: bandRows, rotation: .quarter) }

        func presentInBands(
            at time: FrameTime,
            draw: (_ target: AnyObject, _ onScreen: AnyObject?, _ copy: (PixelBuffer, Range<Int>) -> Void) -> RowBands?
        ) throws(DisplayError) {
            let scanout = scanout
            guard let damage = draw(scanout.back, scanout.front, { scanout.copy($0, rows: $1) }) else { return }
            if damage.isEmpty {
                unchanged += 1
                return
            }
            scanout.flip()
            flips += 1
        }
    }

    func testFramesDrawnInBandsEqualWholeFramesCopiedOut() throws {
        let size = PixelSize(width: 640, height: 360)
        let deck = BenchRunner.deck(cards: 300)
        var scene = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        let backend = BandedMemoryBackend(size: size)
        let renderer = try Renderer()
        let wholeRenderer = try Renderer()
        let whole = PixelBuffer(width: size.width, height: size.height)
        let expected = BandScanout(frameSize: size, rotation: .quarter, format: .rgb565)
        _ = scene.scroll(to: .card(40), duration: 1, curve: .easeInOut, tag: 0)
        for k in 0...12 {
            // Frame 6 again at 7: the same picture, not drawn or flipped.
            let time = Double(k == 7 ? 6 : k) / 12
            let frameTime = FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time)
            _ = scene.frame(at: frameTime, into: &list)
            try Session.draw(list, deck: deck, with: renderer, on: backend, at: frameTime, output: nil)
            try wholeRenderer.render(list, deck: deck, into: whole)
            expected.copy(whole, rows: 0..<size.height)
            expected.flip()
            let got = backend.scanout.bytes(of: try XCTUnwrap(backend.scanout.front))
            XCTAssertTrue(got == expected.bytes(of: try XCTUnwrap(expected.front)), "frame \(k) differs")
        }
        XCTAssertEqual(backend.unchanged, 1)
        XCTAssertEqual(backend.flips, 12)
    }
}
