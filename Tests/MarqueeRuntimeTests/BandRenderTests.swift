import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// The band renderer (each window of rows drawn into a small band buffer and copied at once into
/// the scan-out buffer) against the shadow path (the whole frame drawn, then copied): the scan-out
/// buffer on screen must be the same to the byte after every frame of every bench scene but the
/// paced menu, at every rotation and in RGB565, with bands of several heights (windows cut short by
/// damage and by the frame's end included), and nothing may be written outside the band.
final class BandRenderTests: XCTestCase {
    /// The paths and band heights: one renderer each, so each keeps its own records of its two
    /// buffers, as a display does.
    /// With `spans`, the plain fills are left to the copy (`ConstantSpans`), as DRM's unturned
    /// and half-turned XRGB8888 copies take them.
    private static let paths: [(rotation: Rotation, format: ScanoutFormat, rows: Int, spans: Bool)] = [
        (.none, .xrgb8888, 32, false), (.quarter, .xrgb8888, 7, false), (.half, .xrgb8888, 64, false),
        (.threeQuarters, .xrgb8888, 32, false), (.none, .rgb565, 16, false), (.quarter, .rgb565, 128, false),
        (.quarter, .xrgb8888, 64, false), (.none, .xrgb8888, 64, true), (.half, .xrgb8888, 32, true),
        (.none, .xrgb8888, 7, true),
    ]

    /// With the phase DRM uses, every window edge inside the frame is where a clockwise quarter
    /// turn's panel lines begin (whole 64-byte lines in XRGB8888 and RGB565), whatever the frame's
    /// height; other turns keep the grid from row 0.
    func testClockwiseWindowsEndOnPanelLines() {
        for height in [1080, 1920, 320, 768, 601, 64, 63] {
            let phase = FrameCopier.bandPhase(frameHeight: height, rows: 64, rotation: .quarter)
            let band = BandBuffer(frameWidth: 8, frameHeight: height, rows: 64, phase: phase)
            var row = 0
            var index = 0
            while row < height {
                let window = band.window(index)
                XCTAssertEqual(window.lowerBound, row, "windows tile the frame (height \(height))")
                XCTAssertEqual(band.index(ofRow: window.lowerBound), index)
                XCTAssertEqual(band.index(ofRow: window.upperBound - 1), index)
                if window.upperBound < height {
                    XCTAssertEqual(
                        (height - window.upperBound) % 32, 0, "height \(height): edge at \(window.upperBound)")
                }
                row = window.upperBound
                index += 1
            }
            for rotation in [Rotation.none, .half, .threeQuarters] {
                XCTAssertEqual(FrameCopier.bandPhase(frameHeight: height, rows: 64, rotation: rotation), 0)
            }
        }
    }

    func testBandsEqualTheShadowPathInEveryScenePathAndFormat() throws {
        // The menu is paced in real time with 200 pictures decoding as it goes: left out.
        for scene in BenchScene.allCases where scene != .menu1080pImages {
            try checkScene(scene)
        }
    }

    private func checkScene(_ scene: BenchScene) throws {
        let bench = BenchRunner(scene: scene, cards: scene == .cardsSPI ? 200 : 2000)
        let size = bench.size
        var state = Scene(deck: scene.deck(cards: bench.cards), viewport: size)
        var list = DisplayList()
        let shadowRenderer = try Renderer()
        let frame = PixelBuffer(width: size.width, height: size.height)
        let shadows = Self.paths.map { BandScanout(frameSize: size, rotation: $0.rotation, format: $0.format) }
        let bandRenderers = try Self.paths.map { _ in try Renderer() }
        let bands = Self.paths.map {
            BandBuffer(
                frameWidth: size.width, frameHeight: size.height, rows: $0.rows,
                phase: FrameCopier.bandPhase(frameHeight: size.height, rows: $0.rows, rotation: $0.rotation),
                guardRows: 2)
        }
        let scanouts = Self.paths.map { BandScanout(frameSize: size, rotation: $0.rotation, format: $0.format) }
        // departures-1080p's logos through a real image store shared by every renderer; each frame
        // is checked once every picture in it is decoded (a probe renderer draws it until none is
        // pending), so that no renderer draws a placeholder another draws as a picture.
        let pictures =
            scene.showsImages ? try BenchPictures(for: scene, cards: bench.cards, limits: bench.imageLimits) : nil
        let probe = try Renderer()
        if let pictures {
            for renderer in [shadowRenderer, probe] + bandRenderers {
                renderer.imageProvider = pictures.store
                renderer.imagePath = { pictures.path(for: $0) }
            }
        }
        func waitForPictures() throws {
            guard let pictures else { return }
            for _ in 0..<600 {
                let pending = probe.pendingImagesDrawn
                try probe.render(list, deck: state.deck, into: PixelBuffer(width: size.width, height: size.height))
                if probe.pendingImagesDrawn == pending { return }
                try pictures.waitForDecodes()
            }
            XCTFail("\(scene.rawValue): the pictures in view were not decoded within 60 s")
        }

        func check(at time: Double, _ label: String) throws {
            _ = state.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
            try waitForPictures()
            try shadowRenderer.render(list, deck: state.deck, into: frame)
            for index in Self.paths.indices {
                let shadow = shadows[index]
                shadow.copy(frame, rows: 0..<size.height)
                shadow.flip()
                let scanout = scanouts[index]
                let spans = Self.paths[index].spans ? scanout.spans(bandRows: Self.paths[index].rows) : nil
                XCTAssertEqual(spans != nil, Self.paths[index].spans, "\(scanout.name) takes spans")
                let changed = try bandRenderers[index].render(
                    list, deck: state.deck, bandsFor: scanout.back, onScreen: scanout.front, through: bands[index],
                    spans: spans
                ) { view, window in scanout.copy(view, rows: window, spans: spans) }
                if !changed.isEmpty { scanout.flip() }
                // The same frame again is the one on screen: nothing is drawn or flipped.
                var drawnAgain = false
                let again = try bandRenderers[index].render(
                    list, deck: state.deck, bandsFor: scanout.back, onScreen: scanout.front, through: bands[index]
                ) { _, _ in drawnAgain = true }
                let withSpans = Self.paths[index].spans ? " with spans" : ""
                let path =
                    "\(scene.rawValue) \(label): \(scanout.name) in bands of \(Self.paths[index].rows)\(withSpans)"
                XCTAssertTrue(again.isEmpty && !drawnAgain, "\(path): an unchanged frame drew \(again)")
                XCTAssertTrue(bands[index].guardsIntact, "\(path): written outside the band")
                let expected = shadow.bytes(of: try XCTUnwrap(shadow.front))
                let got = scanout.bytes(of: try XCTUnwrap(scanout.front))
                if expected != got, let first = expected.indices.first(where: { expected[$0] != got[$0] }) {
                    let panel = Self.paths[index].rotation.panelSize(ofLogical: size)
                    let row = first / (panel.width * Self.paths[index].format.bytesPerPixel)
                    XCTFail("\(path): differs from the shadow path from panel row \(row) on")
                }
            }
        }
        try check(at: 0, "the first frame")
        if let target = bench.targetCard {
            _ = state.scroll(to: .card(target), duration: bench.duration, curve: .easeInOut, tag: 0)
        } else {
            try bench.editInView(&state)
        }
        // Frames across the scroll or the edits, their end included.
        for step in 1...6 { try check(at: bench.duration * Double(step) / 6, "frame \(step) of 6") }
    }
}
