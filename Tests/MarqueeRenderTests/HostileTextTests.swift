import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

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

    /// HarfBuzz places marks in time that grows with the square of a row of them (30,000 accents
    /// on one letter took 1.3 s): a row keeps its first 30 marks, even with invisible characters
    /// between them, and a row of 30 (more than any script stacks) is kept whole.
    func testARowOfMarksKeepsItsFirstThirty() throws {
        let body = try defaultStyleFonts().body
        let accent: UInt32 = 0x301
        func kept(_ text: String) -> [UInt32] { ShapedParagraph(text, face: body, direction: .auto).scalars }
        let accents = String(repeating: "\u{301}", count: 40_000)
        XCTAssertEqual(kept("a" + accents + " b"), [0x61] + Array(repeating: accent, count: 30) + [0x20, 0x62])
        // Joiners, soft hyphens and word joiners between the accents do not end the row; they stay.
        for invisible: UInt32 in [0x200C, 0xAD, 0x2060] {
            let scalar = String(Unicode.Scalar(invisible)!)
            let scalars = kept("e" + String(repeating: "\u{301}" + scalar, count: 20_000))
            XCTAssertEqual(scalars.filter { $0 == accent }.count, 30, String(invisible, radix: 16))
            XCTAssertEqual(scalars.filter { $0 == invisible }.count, 20_000)
        }
        // Each base starts a new row: 500 letters of 30 accents each keep all 15,000.
        let stacked = String(repeating: "e" + String(repeating: "\u{301}", count: 30), count: 500)
        XCTAssertEqual(kept(stacked).count, 500 * 31)
        let vietnamese = "Tiếng Việt có dấu: ừ, ỡ, ậ; עִבְרִית"
        XCTAssertEqual(kept(vietnamese), vietnamese.unicodeScalars.map(\.value))
        let line = TextLayout.lines("a" + accents, face: body, maximumWidth: 600, maximumLines: 1)[0]
        // (HarfBuzz may compose "a" and its first accent into one glyph.)
        XCTAssertTrue((30...31).contains(line.glyphs.count), "\(line.glyphs.count) glyphs")
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
