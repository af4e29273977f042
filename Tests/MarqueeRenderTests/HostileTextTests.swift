import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Text built to break shaping, bidi or line breaking: each is laid out and drawn on a card
/// without a crash or a hang, and stays inside its box.
final class HostileTextTests: XCTestCase {
    static let hostile: [(name: String, text: String)] = [
        ("200 nested embeddings", String(repeating: "\u{202B}א\u{202A}b", count: 100) + "x"),
        ("10,000 combining marks on one base", "a" + String(repeating: "\u{301}", count: 10_000) + " b"),
        ("a 60,000-character title", String(repeating: "Brightwater ", count: 5_000)),
        ("zero-width-joiner chains", String(repeating: "👩\u{200D}", count: 2_000) + "👩"),
        ("only characters no font has", String(repeating: "\u{10FFFD}", count: 3_000)),
        ("unpaired isolates and pops", String(repeating: "\u{2067}\u{2069}\u{202C}\u{2069}ש", count: 500)),
    ]

    func testHostileTextsLayOutInsideTheirBox() throws {
        let fonts = try defaultStyleFonts()
        for (name, text) in Self.hostile {
            for direction in TextDirection.allCases {
                let lines = TextLayout.lines(
                    text, face: fonts.body, maximumWidth: 600, maximumLines: 3, direction: direction)
                XCTAssertFalse(lines.isEmpty, name)
                XCTAssertLessThanOrEqual(lines.count, 3, name)
                // One grapheme cluster wider than the box (a joiner chain is one, for UAX #29 and
                // for HarfBuzz) cannot be cut: it is the line's only content and the card clips it.
                for line in lines where line.width > 600 {
                    XCTAssertEqual(name, "zero-width-joiner chains")
                    XCTAssertEqual(Set(line.glyphs.map(\.cluster)).count, 1, "\(name) \(direction)")
                }
            }
        }
    }

    func testHostileTitlesAndBodiesRender() throws {
        var deck = Deck()
        deck.sections = [
            Section(
                cards: Self.hostile.enumerated().map {
                    Card(id: "h\($0.offset)", title: $0.element.text, body: $0.element.text)
                })
        ]
        var scene = Scene(deck: deck, viewport: PixelSize(width: 640, height: 1200))
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        let buffer = PixelBuffer(width: 640, height: 1200)
        try Renderer().render(list, deck: deck, into: buffer)
    }
}
