import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Every insert and delete position in decks of 0–8 cards over 1–3 sections: the layout kept in
/// step edit by edit must equal the layout built afresh from the edited deck.
final class EditingTests: XCTestCase {
    let viewport = PixelSize(width: 500, height: 400)

    func shapes(_ total: Int) -> [[Int]] {
        var result = [[total]]
        for first in 0...total {
            result.append([first, total - first])
            for second in 0...(total - first) { result.append([first, second, total - first - second]) }
        }
        return result
    }

    func assertSame(
        _ edited: CollectionLayout, _ deck: Deck, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let fresh = CollectionLayout(deck: deck, viewport: viewport)
        XCTAssertEqual(edited.index.entries, fresh.index.entries, what, file: file, line: line)
        XCTAssertEqual(edited.contentHeight, fresh.contentHeight, what, file: file, line: line)
        for card in 0..<deck.cardCount {
            XCTAssertEqual(edited.frame(ofCard: card), fresh.frame(ofCard: card), what, file: file, line: line)
        }
    }

    func testEveryInsertAndDeletePosition() throws {
        for kind in [LayoutKind.list, .grid] {
            try withEvery("cards", in: 0...8) { total in
                for counts in shapes(total) {
                    let deck = SmallDecks.deck(
                        sectionCounts: counts, titled: counts.count != 2, kind: kind, columns: kind == .grid ? 3 : 1,
                        heights: { $0 % 2 == 0 ? 70 : nil })
                    for position in 0...deck.cardCount {
                        var edited = deck
                        var layout = CollectionLayout(deck: deck, viewport: viewport)
                        let (section, item) = try deck.insertionPoint(forGlobalIndex: position)
                        try edited.insert(Card(id: "new", height: 55), section: section, item: item)
                        layout.insertCard(section: section, item: item, height: 55)
                        XCTAssertEqual(edited.globalIndex(ofCardWithID: "new"), position)
                        assertSame(layout, edited, "\(kind) \(counts) insert at \(position)")
                    }
                    for position in 0..<deck.cardCount {
                        var edited = deck
                        var layout = CollectionLayout(deck: deck, viewport: viewport)
                        let (section, item) = try deck.location(ofCard: position)
                        edited.removeCard(section: section, item: item)
                        layout.removeCard(section: section, item: item)
                        assertSame(layout, edited, "\(kind) \(counts) delete at \(position)")
                    }
                }
            }
        }
    }

    func testEditsThatCannotBeMadeChangeNothing() throws {
        var deck = SmallDecks.deck(sectionCounts: [2, 1])
        let before = deck
        XCTAssertThrowsError(try deck.insert(Card(id: "c0"), section: 0, item: 0)) {
            XCTAssertTrue("\($0)".contains("already exists"))
        }
        XCTAssertThrowsError(try deck.insert(Card(id: "x"), section: 2, item: 0))
        XCTAssertThrowsError(try deck.insertionPoint(forGlobalIndex: 4))
        XCTAssertThrowsError(try deck.location(ofCard: 3))
        XCTAssertThrowsError(try deck.update(section: 0, item: 0, with: Card(id: "other")))
        XCTAssertEqual(deck, before)
        XCTAssertThrowsError(try Deck().insertionPoint(forGlobalIndex: 0)) {
            XCTAssertTrue("\($0)".contains("no sections"))
        }
    }

    func testUpdateKeepsTheIdAndTheLayoutFollowsAHeightChange() throws {
        var deck = SmallDecks.deck(sectionCounts: [3])
        var layout = CollectionLayout(deck: deck, viewport: viewport)
        try deck.update(section: 0, item: 1, with: Card(id: "", title: "New", height: 300))
        layout.setCardHeight(section: 0, item: 1, height: 300)
        XCTAssertEqual(deck.sections[0].cards[1].id, "c1")
        XCTAssertEqual(deck.sections[0].cards[1].title, "New")
        assertSame(layout, deck, "update")
    }

    func testEditsFarFromTheViewportOnAMillionCards() throws {
        var deck = Deck()
        deck.sections = [Section(cards: (0..<1_000_000).map { Card(id: "c\($0)") })]
        var layout = CollectionLayout(deck: deck, viewport: viewport)
        layout.insertCard(section: 0, item: 900_000, height: nil)
        layout.removeCard(section: 0, item: 10)
        XCTAssertEqual(layout.cardCount, 1_000_000)
        XCTAssertEqual(layout.frame(ofCard: 5)?.y, 40 + 5 * 184)
        XCTAssertEqual(layout.frame(ofCard: 999_999)?.y, 40 + 999_999 * 184)
    }
}
