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
        var spansGiven = false

        init(size: PixelSize, rotation: Rotation, format: ScanoutFormat) {
            software = SoftwareBackend(size: size, refreshRate: 60, realtime: false)
            scanout = BandScanout(frameSize: size, rotation: rotation, format: format)
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
        var bandPhase: Int {
            FrameCopier.bandPhase(frameHeight: size.height, rows: bandRows, rotation: scanout.rotation)
        }

        func presentInBands(
            at time: FrameTime,
            draw: (
                _ target: AnyObject, _ onScreen: AnyObject?, _ spans: ConstantSpans?,
                _ copy: (PixelBuffer, Range<Int>) -> Void
            ) -> RowBands?
        ) throws(DisplayError) {
            let scanout = scanout
            // As DRM does: the fills are left to the copy where it takes them.
            let spans = scanout.spans(bandRows: bandRows)
            spansGiven = spans != nil
            guard let damage = draw(scanout.back, scanout.front, spans, { scanout.copy($0, rows: $1, spans: spans) })
            else { return }
            if damage.isEmpty {
                unchanged += 1
                return
            }
            scanout.flip()
            flips += 1
        }
    }

    func testFramesDrawnInBandsEqualWholeFramesCopiedOut() throws {
        try checkFramesDrawnInBands(rotation: .quarter, format: .rgb565, spans: false)
    }

    /// Unturned and turned by half in XRGB8888, the plain fills are left to the copy
    /// (`ConstantSpans`); 636 pixels wide, a half turn's lines start 12 columns in.
    func testFillsLeftToTheCopyEqualWholeFramesCopiedOut() throws {
        try checkFramesDrawnInBands(rotation: .none, format: .xrgb8888, spans: true)
        try checkFramesDrawnInBands(rotation: .half, format: .xrgb8888, spans: true, width: 636)
    }

    /// The demo deck and every example deck of docs/examples (their pictures drawn as
    /// placeholders: no image store), scrolled through, unturned and turned by half.
    func testExampleDecksWithFillsLeftToTheCopyEqualWholeFramesCopiedOut() throws {
        let root = #filePath.components(separatedBy: "/Tests/").first! + "/docs/examples"
        var decks = [("demo", DemoDeck.make())]
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() where name.hasSuffix(".json") {
            let text = try String(contentsOfFile: root + "/" + name, encoding: .utf8)
            // library.json is a template library, not a deck.
            guard let deck = try? DeckDecoder.decode(text), deck.cardCount > 0 else { continue }
            decks.append((name, deck))
        }
        XCTAssertGreaterThanOrEqual(decks.count, 8, "decks checked: \(decks.map(\.0))")
        for (name, deck) in decks {
            for rotation in [Rotation.none, .half] {
                try checkFramesDrawnInBands(
                    rotation: rotation, format: .xrgb8888, spans: true, width: 1280, height: 720, deck: deck,
                    label: name)
            }
        }
    }

    private func checkFramesDrawnInBands(
        rotation: Rotation, format: ScanoutFormat, spans: Bool, width: Int = 640, height: Int = 360,
        deck: Deck = BenchRunner.deck(cards: 300), label: String = "bench deck"
    ) throws {
        let size = PixelSize(width: width, height: height)
        var scene = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        let backend = BandedMemoryBackend(size: size, rotation: rotation, format: format)
        let renderer = try Renderer()
        let wholeRenderer = try Renderer()
        let whole = PixelBuffer(width: size.width, height: size.height)
        let expected = BandScanout(frameSize: size, rotation: rotation, format: format)
        _ = scene.scroll(to: .card(min(40, deck.cardCount - 1)), duration: 1, curve: .easeInOut, tag: 0)
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
            XCTAssertTrue(
                got == expected.bytes(of: try XCTUnwrap(expected.front)),
                "\(label), \(backend.scanout.name): frame \(k) differs")
        }
        XCTAssertEqual(backend.spansGiven, spans)
        // (A short example deck may stop scrolling before frame 6: then more frames are unchanged.)
        if deck.cardCount > 40 {
            XCTAssertEqual(backend.unchanged, 1)
            XCTAssertEqual(backend.flips, 12)
        }
    }
}
