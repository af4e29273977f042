import MarqueeCore
import XCTest

final class CardListTests: XCTestCase {
    func testMatchesAnArrayUnderRandomEdits() {
        var random = SplitMix64(seed: 99)
        var model: [Card] = (0..<40).map { Card(id: "c\($0)") }
        var list = CardList(model)
        for step in 0..<3000 {
            switch random.next() % 4 {
            case 0, 1:
                let position = Int(random.next() % UInt64(model.count + 1))
                let card = Card(id: "n\(step)")
                model.insert(card, at: position)
                list.insert(card, at: position)
            case 2:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                let removed = model.remove(at: position)
                XCTAssertEqual(list.remove(at: position), removed)
                XCTAssertFalse(list.contains(id: removed.id))
            default:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                list[position].title = "t\(step)"
                model[position].title = "t\(step)"
            }
            if step % 100 == 0 {
                XCTAssertEqual(Array(list), model)
                XCTAssertEqual(list.count, model.count)
                for index in stride(from: 0, to: model.count, by: 7) {
                    XCTAssertEqual(list[index], model[index])
                    XCTAssertEqual(list.position(ofID: model[index].id), index, "position of \(model[index].id)")
                }
                XCTAssertNil(list.position(ofID: "absent"))
            }
        }
        XCTAssertEqual(Array(list), model)
        XCTAssertEqual(list, CardList(model))
    }

    func testValueSemantics() {
        var a: CardList = [Card(id: "x"), Card(id: "y")]
        let b = a
        a.insert(Card(id: "z"), at: 0)
        XCTAssertEqual(b.map(\.id), ["x", "y"])
        XCTAssertEqual(a.map(\.id), ["z", "x", "y"])
    }

    func testDeckKeepsItsIDSetInStep() throws {
        var deck = Deck(sections: [Section(cards: [Card(id: "a"), Card(id: "b")])])
        XCTAssertTrue(deck.containsCard(withID: "a"))
        deck.removeCard(section: 0, item: 0)
        XCTAssertFalse(deck.containsCard(withID: "a"))
        try deck.insert(Card(id: "a"), section: 0, item: 1)
        XCTAssertThrowsError(try deck.insert(Card(id: "b"), section: 0, item: 0))
        deck.sections.append(Section(cards: [Card(id: "c")]))  // changed from outside: rebuilt on need
        XCTAssertTrue(deck.containsCard(withID: "c"))
        try deck.insertSection(Section(cards: [Card(id: "d")]), at: 0)
        XCTAssertThrowsError(try deck.insertSection(Section(cards: [Card(id: "c")]), at: 0))
        try deck.removeSection(at: 0)
        XCTAssertFalse(deck.containsCard(withID: "d"))
        XCTAssertEqual(deck.globalIndex(ofCardWithID: "c"), 2)
    }

    /// Cards with every field, long and non-Latin texts, through inserts, removals, replacements
    /// (also of ids) and the rewrite that drops the bytes of replaced cards.
    func testEveryFieldAndLongTextsSurviveEditsAndRewrites() {
        var random = SplitMix64(seed: 5)
        func card(_ number: Int) -> Card {
            let long = String(repeating: "Ünïcödé عربي 中文 ", count: Int(random.next() % 80))
            var card = Card(id: number % 3 == 0 ? "id-\(number)-" + String(repeating: "x", count: 40) : "c\(number)")
            card.title = "Title \(number) \(long.prefix(20))"
            card.body = long
            if random.next() % 2 == 0 { card.color = Color(red: 1, green: 2, blue: 3, alpha: 4) }
            if random.next() % 2 == 0 { card.accent = Color(red: 250, green: 0, blue: 9) }
            if random.next() % 2 == 0 { card.height = Double(random.next() % 500) + 0.25 }
            if random.next() % 2 == 0 { card.direction = [.auto, .ltr, .rtl][Int(random.next() % 3)] }
            if random.next() % 2 == 0 { card.template = "departure" }
            if random.next() % 2 == 0 { card.fields = ["time": "12:0\(number % 10)", "to": long, "": "empty key"] }
            if random.next() % 2 == 0 { card.expires = 1_795_000_000.5 + Double(number) }
            return card
        }
        var model = (0..<30).map(card)
        var list = CardList(model)
        for step in 30..<4000 {
            switch random.next() % 4 {
            case 0:
                let position = Int(random.next() % UInt64(model.count + 1))
                let new = card(step)
                model.insert(new, at: position)
                list.insert(new, at: position)
            case 1:
                guard model.count > 1 else { continue }
                let position = Int(random.next() % UInt64(model.count))
                XCTAssertEqual(list.remove(at: position), model.remove(at: position))
            default:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                let new = card(step)
                model[position] = new
                list[position] = new
            }
            if step % 250 == 0 {
                XCTAssertEqual(Array(list), model)
                for (position, card) in model.enumerated() {
                    XCTAssertEqual(list.position(ofID: card.id), position)
                    XCTAssertEqual(list.id(at: position), card.id)
                    XCTAssertEqual(list.sizing(at: position).height, card.height)
                    XCTAssertEqual(list.sizing(at: position).template, card.template)
                }
                // Bytes of replaced cards are dropped once they outweigh the cards' own.
                let bytes = list.textBytes
                XCTAssertLessThanOrEqual(bytes.stored, max(2 * bytes.live, bytes.live + (1 << 20)) + 64 << 10)
            }
        }
        XCTAssertEqual(Array(list), model)
    }

    /// A list built card by card (as a deck is decoded) refuses a second card with an id it has.
    func testBuilderRefusesDuplicateIDs() {
        var builder = CardList.Builder()
        XCTAssertNil(builder.append(Card(id: "a", title: "first")))
        XCTAssertNil(builder.append(Card(id: "b")))
        XCTAssertEqual(builder.append(Card(id: "a", title: "again")), 0)
        let list = builder.build()
        XCTAssertEqual(list.map(\.title), ["first", ""])
        XCTAssertEqual(list.position(ofID: "b"), 1)
    }
}
