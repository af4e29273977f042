import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Text whose glyphs reach past its card (an element near the card's bottom with a large size,
/// or placed above its top), drawn in bands of 16 rows: the windows past the card that only the
/// glyphs reach must be drawn, with and without the fills left to the copy (`ConstantSpans`),
/// and the rows past the card where a clock ticks or a marquee moves must be redrawn. Every frame
/// is compared with the whole frame copied out.
final class OverhangTests: XCTestCase {
    private static func deck(element: String) throws -> Deck {
        try OneTemplateDecks.deck(
            element: element, text: "Qgjpqy Qgjpqy Qgjpqy Qgjpqy Qgjpqy Qgjpqy", spacing: 60)
    }

    func testTextReachingBelowItsCardIsDrawnInEveryBand() throws {
        try check(
            try Self.deck(
                element: #"{ "text": "m", "left": 40, "top": 96, "width": 500, "height": 4, "size": 56 }"#
            ))
    }

    func testTextReachingAboveItsCardIsDrawnInEveryBand() throws {
        try check(
            try Self.deck(
                element: #"{ "text": "m", "left": 40, "top": -44, "width": 500, "height": 4, "size": 40 }"#
            ))
    }

    func testAClockTickingBelowItsCardIsRedrawn() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "clock": "%H:%M:%S gjpqy", "left": 40, "top": 100, "width": 500, "height": 4, "size": 56 }"#))
    }

    func testAMarqueeMovingAboveItsCardIsRedrawn() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "text": "m", "left": 40, "top": -44, "width": 300, "height": 4, "size": 40, "overflow": "marquee", "speed": 80, "pause": 0.2 }"#
            ))
    }

    /// Frames at 0, 0.5, ... 2 s, unturned and turned by half, through bands with the table and
    /// without, each against the whole frame copied out.
    private func check(_ deck: Deck) throws {
        let size = PixelSize(width: 640, height: 480)
        for rotation in [Rotation.none, .half] {
            var scene = Scene(deck: deck, viewport: size)
            scene.clockOffset = 1_800_000_000
            var list = DisplayList()
            let renderers = try (0..<2).map { _ in try Renderer() }
            let scanouts = (0..<2).map { _ in BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888) }
            let bands = (0..<2).map { _ in BandBuffer(frameWidth: size.width, frameHeight: size.height, rows: 16) }
            let spans = try XCTUnwrap(scanouts[0].spans(bandRows: 16))
            for k in 0..<5 {
                let time = Double(k) / 2
                _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
                let whole = PixelBuffer(width: size.width, height: size.height)
                try Renderer().render(list, deck: deck, into: whole)
                let expected = BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888)
                expected.copy(whole, rows: 0..<size.height)
                expected.flip()
                let wanted = expected.bytes(of: try XCTUnwrap(expected.front))
                for index in 0..<2 {
                    let scanout = scanouts[index]
                    let table = index == 0 ? spans : nil
                    let changed = try renderers[index].render(
                        list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: bands[index],
                        spans: table
                    ) { view, window in scanout.copy(view, rows: window, spans: table) }
                    if !changed.isEmpty { scanout.flip() }
                    XCTAssertTrue(
                        scanout.bytes(of: try XCTUnwrap(scanout.front)) == wanted,
                        "turned \(rotation.rawValue), \(index == 0 ? "with" : "without") the table: the frame at \(time) s differs from the whole frame"
                    )
                }
            }
        }
    }
}
