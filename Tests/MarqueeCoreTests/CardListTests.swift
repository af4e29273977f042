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
}
