import MarqueeCore
import MarqueeRuntime
import XCTest

final class TextFitCheckTests: XCTestCase {
    func deck(_ cards: [Card], cardHeight: Double, kind: LayoutKind = .list) -> Deck {
        var deck = Deck()
        deck.layout.kind = kind
        deck.layout.columns = kind == .grid ? 2 : 1
        deck.layout.cardHeight = cardHeight
        deck.sections = [Section(cards: CardList(cards))]
        return deck
    }

    func testCardsTooShortForTheirBodyOrTitleAreNamed() {
        // The default style: one body line needs 1.5 × 24 + 0.7 × 40 + 2.25 × 24 = 118 px.
        let warnings = TextFitCheck.warnings(
            in: deck(
                [
                    Card(id: "fits", title: "T", body: "B", height: 118),
                    Card(id: "short", title: "T", body: "B", height: 117),
                    Card(id: "no-body", title: "T", height: 62),
                    Card(id: "untitled", body: "B", height: 100),
                    Card(id: "tiny", title: "T", body: "B", height: 40),
                ], cardHeight: 160))
        XCTAssertEqual(
            warnings.map(\.description),
            [
                "sections[0].cards[1]: card \"short\" is 117 px tall; one line of its body needs 118 px, so the body is not shown (the title ends with …)",
                "sections[0].cards[3]: card \"untitled\" is 100 px tall; one line of its body needs 118 px, so nothing of it is shown",
                "sections[0].cards[4]: card \"tiny\" is 40 px tall; its title needs 62 px and is cut",
            ])
    }

    func testAGridUsesTheLayoutsHeightAndAManyCardDeckGetsAShortReport() {
        let cards = (0..<25).map { Card(id: "c\($0)", title: "T", body: "B", height: 300) }
        XCTAssertEqual(TextFitCheck.warnings(in: deck(cards, cardHeight: 80, kind: .list)), [])
        let warnings = TextFitCheck.warnings(in: deck(cards, cardHeight: 80, kind: .grid))
        XCTAssertEqual(warnings.count, TextFitCheck.namedCardLimit + 1)
        XCTAssertEqual(warnings.last?.description, "and 15 more cards like these")
    }
}
