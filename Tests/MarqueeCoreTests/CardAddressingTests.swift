import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Every card-addressing edit takes a global index, `S:I` and `id:ID`; `move` reaches the end of
/// any section; `scroll-to section:S` shows a section's header.
final class CardAddressingTests: XCTestCase {
    let viewport = PixelSize(width: 800, height: 600)

    /// Sections of 3, 2 and 3 cards: c0 c1 c2 | c3 c4 | c5 c6 c7.
    func scene() -> Scene { Scene(deck: SmallDecks.deck(sectionCounts: [3, 2, 3]), viewport: viewport) }

    func ids(_ scene: Scene) -> [[String]] { scene.deck.sections.map { section in section.cards.map(\.id) } }

    func testEveryReferenceFormNamesTheSameCard() throws {
        for reference in [CardReference.index(4), .sectionItem(section: 1, item: 1), .id("c4")] {
            var deleted = scene()
            try deleted.deleteCard(reference)
            XCTAssertEqual(ids(deleted), [["c0", "c1", "c2"], ["c3"], ["c5", "c6", "c7"]], "\(reference)")

            var updated = scene()
            try updated.updateCard(reference, with: Card(id: "", title: "New"))
            XCTAssertEqual(updated.deck.sections[1].cards[1].title, "New", "\(reference)")
            XCTAssertEqual(updated.deck.sections[1].cards[1].id, "c4")

            var moved = scene()
            try moved.moveCard(reference, to: .index(0))
            XCTAssertEqual(ids(moved), [["c4", "c0", "c1", "c2"], ["c3"], ["c5", "c6", "c7"]], "\(reference)")
        }
    }

    func testEveryPlaceFormPutsTheCardThere() throws {
        // Before c5, the first card of section 2, named three ways.
        for place in [CardPlace.index(5), .sectionItem(section: 2, item: 0), .id("c5")] {
            var inserted = scene()
            try inserted.insertCard(Card(id: "n"), at: place)
            XCTAssertEqual(ids(inserted), [["c0", "c1", "c2"], ["c3", "c4"], ["n", "c5", "c6", "c7"]], "\(place)")

            var moved = scene()
            try moved.moveCard(.index(0), to: place)
            // c0 leaves index 0, so index 5 (and c5's index, 5) is now after c5: the global index is
            // the one the card will have.
            let expected: [[String]] =
                place == .sectionItem(section: 2, item: 0)
                ? [["c1", "c2"], ["c3", "c4"], ["c0", "c5", "c6", "c7"]]
                : [["c1", "c2"], ["c3", "c4"], ["c5", "c0", "c6", "c7"]]
            XCTAssertEqual(ids(moved), expected, "\(place)")
            XCTAssertEqual(moved.layout.cardCount, 8)
        }
    }

    func testMoveReachesTheEndOfAMiddleSection() throws {
        var scene = scene()
        // Section 1 has 2 cards besides c0: item 2 is its end, which no global index names.
        try scene.moveCard(.id("c0"), to: .sectionItem(section: 1, item: 2))
        XCTAssertEqual(ids(scene), [["c1", "c2"], ["c3", "c4", "c0"], ["c5", "c6", "c7"]])
        XCTAssertEqual(scene.layout.location(ofCard: 4)?.section, 1, "the layout agrees with the deck")
        XCTAssertEqual(scene.layout.location(ofCard: 5)?.section, 2)

        // Within its own section, the end is the count without the card itself.
        try scene.moveCard(.sectionItem(section: 1, item: 0), to: .sectionItem(section: 1, item: 2))
        XCTAssertEqual(ids(scene), [["c1", "c2"], ["c4", "c0", "c3"], ["c5", "c6", "c7"]])
        XCTAssertThrowsError(try scene.moveCard(.index(2), to: .sectionItem(section: 1, item: 3))) {
            XCTAssertEqual(
                ($0 as? DeckEditError)?.message, "there is no place 1:3 to move to (section 1 takes items 0 to 2)")
        }
        XCTAssertEqual(
            ids(scene), [["c1", "c2"], ["c4", "c0", "c3"], ["c5", "c6", "c7"]], "a failed move changes nothing")

        // Into an empty section, and to the end of the last.
        var withEmpty = Scene(deck: SmallDecks.deck(sectionCounts: [2, 0, 1]), viewport: viewport)
        try withEmpty.moveCard(.index(0), to: .sectionItem(section: 1, item: 0))
        try withEmpty.moveCard(.index(0), to: .sectionItem(section: 2, item: 1))
        XCTAssertEqual(ids(withEmpty), [[], ["c0"], ["c2", "c1"]])
    }

    func testAddressesThatNameNothingSayWhy() {
        var scene = scene()
        let cases: [(() throws -> Void, String)] = [
            ({ try scene.deleteCard(.index(8)) }, "card index 8 is out of range (the deck has 8 cards)"),
            (
                { try scene.deleteCard(.sectionItem(section: 3, item: 0)) },
                "section 3 is out of range (the deck has 3 sections)"
            ),
            (
                { try scene.deleteCard(.sectionItem(section: 1, item: 2)) },
                "item 2 is out of range (section 1 has 2 cards)"
            ),
            ({ try scene.updateCard(.id("nope"), with: Card(id: "")) }, "no card has id \"nope\""),
            ({ try scene.moveCard(.index(0), to: .id("nope")) }, "no card has id \"nope\""),
            ({ try scene.insertCard(Card(id: "n"), at: .id("nope")) }, "no card has id \"nope\""),
            (
                { try scene.moveCard(.index(0), to: .sectionItem(section: 5, item: 0)) },
                "there is no section 5 to move to (the deck has 3 sections)"
            ),
            (
                { try scene.moveCard(.index(Int.max), to: .index(0)) },
                "card index 9223372036854775807 is out of range (the deck has 8 cards)"
            ),
            (
                { try scene.updateCard(.index(0), with: Card(id: "other")) },
                "cannot change a card's id (\"c0\" to \"other\")"
            ),
        ]
        for (edit, message) in cases {
            XCTAssertThrowsError(try edit()) { XCTAssertEqual(($0 as? DeckEditError)?.message, message) }
        }
        XCTAssertEqual(ids(scene), [["c0", "c1", "c2"], ["c3", "c4"], ["c5", "c6", "c7"]])
        let single = Scene(deck: SmallDecks.deck(sectionCounts: [1]), viewport: viewport)
        XCTAssertThrowsError(try single.deck.globalIndex(of: .index(1))) {
            XCTAssertEqual(($0 as? DeckEditError)?.message, "card index 1 is out of range (the deck has 1 card)")
        }
    }

    func testAnIdInAMessageIsCut() {
        let scene = scene()
        let long = String(repeating: "x", count: 100_000)
        XCTAssertThrowsError(try scene.deck.globalIndex(of: .id(long))) {
            let message = ($0 as? DeckEditError)?.message ?? ""
            XCTAssertEqual(message, "no card has id \"\(String(repeating: "x", count: 64))…\"")
        }
    }

    func testScrollToASectionShowsItsHeader() throws {
        // Default layout: insets 40, spacing 24, cards 160, headers 64.
        let deck = SmallDecks.deck(sectionCounts: [5, 5, 5])
        let layout = CollectionLayout(deck: deck, viewport: viewport)
        let header1Top: Double = 40 + 88 + 5 * 184
        XCTAssertEqual(try ScrollTarget.section(1).resolve(in: layout, deck: deck).get(), header1Top - 40)
        XCTAssertEqual(layout.headerFrame(ofSection: 1)?.y, header1Top)
        XCTAssertEqual(try ScrollTarget.section(0).resolve(in: layout, deck: deck).get(), 0)
        XCTAssertEqual(
            try ScrollTarget.section(2).resolve(in: layout, deck: deck).get(), header1Top + 5 * 184 + 88 - 40)
        let short = CollectionLayout(deck: deck, viewport: PixelSize(width: 800, height: 2_000))
        XCTAssertEqual(try ScrollTarget.section(2).resolve(in: short, deck: deck).get(), short.maxOffset, "clamped")
        // The section's first card is one header row lower: scrolling to it hides the header.
        XCTAssertEqual(
            try ScrollTarget.sectionItem(section: 1, item: 0).resolve(in: layout, deck: deck).get(),
            header1Top + 88 - 40)
        XCTAssertThrowsError(try ScrollTarget.section(3).resolve(in: layout, deck: deck).get()) {
            XCTAssertEqual("\($0)", "section 3 is out of range (the deck has 3 sections)")
        }

        // Without headers the section's first card goes to the top.
        let untitled = SmallDecks.deck(sectionCounts: [5, 5, 5], titled: false)
        let plain = CollectionLayout(deck: untitled, viewport: viewport)
        XCTAssertEqual(
            try ScrollTarget.section(1).resolve(in: plain, deck: untitled).get(),
            try ScrollTarget.card(5).resolve(in: plain, deck: untitled).get())
        XCTAssertEqual(plain.frame(ofCard: 5)!.y - 40, 5 * 184)
    }
}
