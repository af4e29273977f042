import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Foregrounds that reach past their element's box, drawn in bands with the fills left to the
/// copy (`ConstantSpans`): every glyph must reach the scan-out buffer, as the whole frame copied
/// out shows it. A marquee is drawn at its line's ink rows, which a box shorter than the text
/// does not hold; a clock's line is laid out anew each second and may reach past its card.
final class SpanForegroundTests: XCTestCase {
    private static func deck(element: String) throws -> Deck {
        try OneTemplateDecks.deck(
            element: element, text: String(repeating: "gjpqy Qgjy ", count: 12), spacing: 12)
    }

    func testAMarqueeInABoxShorterThanItsTextIsDrawnWhole() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "text": "m", "left": 40, "top": 10, "right": 40, "height": 4, "size": 40, "overflow": "marquee", "speed": 80, "pause": 0.2 }"#
            ))
    }

    func testAClockReachingPastItsCardIsDrawnWhole() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "clock": "%H:%M:%S gjpqy", "left": 40, "bottom": 0, "width": 400, "height": 4, "size": 40 }"#))
    }

    /// The first frame, unturned and turned by half with the table, against the whole frame
    /// copied out; then frames at 0.5, 1 and 1.5 s against the same band path without the table
    /// (later frames redraw the damaged rows only, which both paths share).
    private func check(_ deck: Deck) throws {
        let size = PixelSize(width: 640, height: 360)
        for rotation in [Rotation.none, .half] {
            var scene = Scene(deck: deck, viewport: size)
            scene.clockOffset = 1_800_000_000
            var list = DisplayList()
            let renderers = try (0..<2).map { _ in try Renderer() }
            let scanouts = (0..<2).map { _ in BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888) }
            let bands = (0..<2).map { _ in BandBuffer(frameWidth: size.width, frameHeight: size.height, rows: 64) }
            let spans = try XCTUnwrap(scanouts[0].spans(bandRows: 64))
            for k in 0..<4 {
                let time = Double(k) / 2
                _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
                for index in 0..<2 {
                    let scanout = scanouts[index]
                    let table = index == 0 ? spans : nil
                    let changed = try renderers[index].render(
                        list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: bands[index],
                        spans: table
                    ) { view, window in scanout.copy(view, rows: window, spans: table) }
                    if !changed.isEmpty { scanout.flip() }
                }
                let got = scanouts[0].bytes(of: try XCTUnwrap(scanouts[0].front))
                let withoutTable = scanouts[1].bytes(of: try XCTUnwrap(scanouts[1].front))
                XCTAssertTrue(
                    got == withoutTable, "turned \(rotation.rawValue): frame at \(time) s differs without the table")
                guard k == 0 else { continue }
                let whole = PixelBuffer(width: size.width, height: size.height)
                try Renderer().render(list, deck: deck, into: whole)
                let expected = BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888)
                expected.copy(whole, rows: 0..<size.height)
                expected.flip()
                XCTAssertTrue(
                    got == expected.bytes(of: try XCTUnwrap(expected.front)),
                    "turned \(rotation.rawValue): the first frame differs from the whole frame")
            }
        }
    }
}
