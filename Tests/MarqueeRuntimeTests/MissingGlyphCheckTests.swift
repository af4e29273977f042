import MarqueeCore
import MarqueeRuntime
import XCTest

/// check-deck's warning about characters no installed font has (they are drawn as boxes).
final class MissingGlyphCheckTests: XCTestCase {
    func testCharactersNoFontHasAreNamedWithTheCardPath() {
        var deck = Deck()
        deck.sections = [
            Section(cards: [
                // Every script here has a font (DejaVu, Noto): no warning.
                Card(id: "world", title: "Gate 4 مرحبا שלום नमस्ते 你好", body: "Ünïcödé\u{200D}"),
                Card(id: "boxes", title: "A\u{10FFFD}", body: "ok \u{10FFFC}\u{10FFFD} ok"),
            ]),
            Section(title: "Notices \u{10FFFD}", cards: [Card(id: "fine", title: "Gate 4")]),
        ]
        XCTAssertEqual(
            MissingGlyphCheck.warnings(in: deck).map(\.description),
            [
                "sections[0].cards[1].title: card \"boxes\" has U+10FFFD, which no installed font has (drawn as an empty box)",
                "sections[0].cards[1].body: card \"boxes\" has U+10FFFC, U+10FFFD, which no installed font has (drawn as an empty box)",
                "sections[1].title: the section header has U+10FFFD, which no installed font has (drawn as an empty box)",
            ])
    }

    /// A mark past the 30 layout keeps in a row is not drawn, so it is not a missing character
    /// either; the same mark among the 30 is.
    func testMarksLayoutLeavesOutAreNotNamed() {
        let accents = String(repeating: "\u{301}", count: 30)
        var deck = Deck()
        deck.sections = [
            Section(cards: [
                Card(id: "dropped", title: "a" + accents + "\u{1DFA}"),
                Card(id: "kept", title: "a" + String(accents.dropLast()) + "\u{1DFA}"),
            ])
        ]
        XCTAssertEqual(
            MissingGlyphCheck.warnings(in: deck).map(\.description),
            [
                "sections[0].cards[1].title: card \"kept\" has U+1DFA, which no installed font has (drawn as an empty box)"
            ])
    }
}
