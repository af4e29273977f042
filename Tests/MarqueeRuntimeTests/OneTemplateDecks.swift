import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Decks of three cards of one template with one element (its JSON given), each card showing
/// `text` in field `m`, and the check that draws them in bands: for the tests that place an
/// element at an edge of its card or its box and check it is drawn whole in bands
/// (`SpanForegroundTests`, `OverhangTests`).
enum OneTemplateDecks {
    static func deck(element: String, text: String, spacing: Int) throws -> Deck {
        let card = { (id: String) in #"{ "id": "\#(id)", "template": "t", "fields": { "m": "\#(text)" } }"# }
        return try DeckDecoder.decode(
            """
            { "layout": { "type": "list", "insets": { "top": 20, "left": 20, "bottom": 20, "right": 20 },
                          "spacing": \(spacing), "cardHeight": 120 },
              "style": { "background": "#121a2b", "cardColor": "#f2f4f8", "cornerRadius": 12,
                         "textColor": "#1a1a1f" },
              "templates": { "t": { "height": 120, "elements": [ \(element) ] } },
              "sections": [ { "cards": [ \(card("a")), \(card("b")), \(card("c")) ] } ] }
            """)
    }

    /// Frames at 0, 0.5, 1, ... s (`frames` of them), unturned and turned by half, drawn through
    /// bands of `bandRows` rows with the fills left to the copy (`ConstantSpans`) and without,
    /// each frame against the whole frame copied out, byte for byte.
    static func checkBandsMatchWholeFrames(
        _ deck: Deck, size: PixelSize, bandRows: Int, frames: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for rotation in [Rotation.none, .half] {
            var scene = Scene(deck: deck, viewport: size)
            scene.clockOffset = 1_800_000_000
            var list = DisplayList()
            let renderers = try (0..<2).map { _ in try Renderer() }
            let scanouts = (0..<2).map { _ in BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888) }
            let bands = (0..<2).map { _ in
                BandBuffer(frameWidth: size.width, frameHeight: size.height, rows: bandRows)
            }
            let spans = try XCTUnwrap(scanouts[0].spans(bandRows: bandRows), file: file, line: line)
            for k in 0..<frames {
                let time = Double(k) / 2
                _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
                let whole = PixelBuffer(width: size.width, height: size.height)
                try Renderer().render(list, deck: deck, into: whole)
                let expected = BandScanout(frameSize: size, rotation: rotation, format: .xrgb8888)
                expected.copy(whole, rows: 0..<size.height)
                expected.flip()
                let wanted = expected.bytes(of: try XCTUnwrap(expected.front, file: file, line: line))
                for index in 0..<2 {
                    let scanout = scanouts[index]
                    let table = index == 0 ? spans : nil
                    let changed = try renderers[index].render(
                        list, deck: deck, bandsFor: scanout.back, onScreen: scanout.front, through: bands[index],
                        spans: table
                    ) { view, window in scanout.copy(view, rows: window, spans: table) }
                    if !changed.isEmpty { scanout.flip() }
                    XCTAssertTrue(
                        scanout.bytes(of: try XCTUnwrap(scanout.front, file: file, line: line)) == wanted,
                        "turned \(rotation.rawValue), \(index == 0 ? "with" : "without") the table: the frame at "
                            + "\(time) s differs from the whole frame", file: file, line: line)
                }
            }
        }
    }
}
