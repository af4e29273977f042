import MarqueeCore
import MarqueeTestSupport
import XCTest

/// `apply`'s difference between two deck states: replayed with the deck's own edits it must give
/// the new state exactly, and move no more cards than it must.
final class DeckDiffTests: XCTestCase {
    /// A seeded generator (SplitMix64), so a failing pair can be run again.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Up to 8 cards in up to 3 sections, drawn from 10 ids and 2 titles (so states share cards
    /// and some of the shared ones change); sections named by id from a pool of 4, or (when
    /// `sectionIDs` is false) only by title, from 2.
    static func randomDeck(_ rng: inout Seeded, sectionIDs: Bool) -> Deck {
        var ids = (0..<10).map { "c\($0)" }
        ids.shuffle(using: &rng)
        var sectionNames = (0..<4).map { "s\($0)" }
        sectionNames.shuffle(using: &rng)
        var deck = Deck()
        let sectionCount = Int.random(in: 0...3, using: &rng)
        var remaining = Int.random(in: 0...8, using: &rng)
        for s in 0..<sectionCount {
            let count = s == sectionCount - 1 ? remaining : Int.random(in: 0...remaining, using: &rng)
            remaining -= count
            var section =
                sectionIDs
                ? Section(title: "Title \(Int.random(in: 0..<2, using: &rng))", id: sectionNames[s])
                : Section(title: Bool.random(using: &rng) ? "A" : "B")
            for _ in 0..<count {
                section.cards.append(Card(id: ids.removeLast(), title: "v\(Int.random(in: 0..<2, using: &rng))"))
            }
            deck.sections.append(section)
        }
        return deck
    }

    /// The steps carried out with the deck's own editing operations (not the diff's).
    static func replay(_ diff: DeckDiff, on start: Deck) throws -> Deck {
        var deck = start
        func location(_ id: String) throws -> (Int, Int) {
            let index = try XCTUnwrap(deck.globalIndex(ofCardWithID: id), "no card \(id)")
            return try deck.location(ofCard: index)
        }
        for step in diff.steps {
            switch step {
            case .deleteCard(let id):
                let (s, i) = try location(id)
                deck.removeCard(section: s, item: i)
            case .insertSection(let section, let at):
                XCTAssertTrue(section.cards.isEmpty, "sections come empty; their cards follow")
                try deck.insertSection(section, at: at)
            case .insertCard(let card, let section, let after):
                let item = try after.map { try XCTUnwrap(deck.sections[section].cards.position(ofID: $0)) + 1 } ?? 0
                try deck.insert(card, section: section, item: item)
            case .moveCard(let id, let section, let after):
                let (s, i) = try location(id)
                let card = deck.removeCard(section: s, item: i)
                let item = try after.map { try XCTUnwrap(deck.sections[section].cards.position(ofID: $0)) + 1 } ?? 0
                try deck.insert(card, section: section, item: item)
            case .updateCard(let card):
                let (s, i) = try location(card.id)
                XCTAssertNotEqual(deck.sections[s].cards[i], card, "an update changes something")
                try deck.update(section: s, item: i, with: card)
            case .deleteSection(let at):
                XCTAssertTrue(deck.sections[at].cards.isEmpty, "a section leaves once its cards are gone")
                try deck.removeSection(at: at)
            case .retitleSection(let at, let title, let id):
                deck.sections[at].title = title
                deck.sections[at].id = id
            }
        }
        return deck
    }

    /// The fewest moves any sequence of edits can do with sections that keep their order: every
    /// card that changes section, and of those that keep it, all but a longest run in the same
    /// relative order (a plain quadratic LIS, independent of the diff's own).
    static func fewestMoves(from old: Deck, to new: Deck) -> Int {
        var oldPlace: [String: (section: String?, index: Int)] = [:]
        var index = 0
        for section in old.sections {
            for card in section.cards {
                oldPlace[card.id] = (section.id, index)
                index += 1
            }
        }
        var shared = 0
        var sameSection: [Int] = []
        for section in new.sections {
            for card in section.cards {
                guard let place = oldPlace[card.id] else { continue }
                shared += 1
                if place.section == section.id { sameSection.append(place.index) }
            }
        }
        var longest = [Int](repeating: 1, count: sameSection.count)
        for i in sameSection.indices {
            for j in 0..<i where sameSection[j] < sameSection[i] { longest[i] = max(longest[i], longest[j] + 1) }
        }
        return shared - (longest.max() ?? 0)
    }

    func testEveryPairOfSmallDecksReachesTheNewStateWithTheFewestMoves() throws {
        var rng = Seeded(state: 2026)
        var movesSeen = 0
        var sectionsReordered = 0
        withEvery("pair", in: 0..<3000) { pair in
            let sectionIDs = pair % 3 != 0
            let old = Self.randomDeck(&rng, sectionIDs: sectionIDs)
            let new = Self.randomDeck(&rng, sectionIDs: sectionIDs)
            let diff = DeckDiff(from: old, to: new)
            guard let replayed = try? Self.replay(diff, on: old) else {
                return XCTFail("\(old) -> \(new): a step failed")
            }
            XCTAssertEqual(replayed.sections, new.sections, "\(old.sections) -> \(new.sections): \(diff.steps)")
            XCTAssertTrue(DeckDiff(from: new, to: new).isEmpty, "the same state twice changes nothing")
            XCTAssertTrue(DeckDiff(from: replayed, to: new).isEmpty)
            // The counts are the steps.
            XCTAssertEqual(diff.moved, diff.steps.filter { if case .moveCard = $0 { true } else { false } }.count)
            XCTAssertEqual(diff.inserted, diff.steps.filter { if case .insertCard = $0 { true } else { false } }.count)
            XCTAssertEqual(diff.deleted, diff.steps.filter { if case .deleteCard = $0 { true } else { false } }.count)
            XCTAssertEqual(diff.updated, diff.steps.filter { if case .updateCard = $0 { true } else { false } }.count)
            movesSeen += diff.moved
            // With sections named by id that keep their order, the moves are the fewest possible.
            let oldIDs = old.sections.compactMap(\.id)
            let order = new.sections.compactMap { section in oldIDs.firstIndex(of: section.id ?? "") }
            if sectionIDs, order == order.sorted() {
                XCTAssertEqual(diff.moved, Self.fewestMoves(from: old, to: new), "\(old.sections) -> \(new.sections)")
            } else if sectionIDs {
                sectionsReordered += 1
            }
        }
        XCTAssertGreaterThan(movesSeen, 500, "the pairs exercise moves")
        XCTAssertGreaterThan(sectionsReordered, 100, "and reordered sections")
    }

    func testMovingOneCardToTheEndMovesOnlyIt() {
        let old = SmallDecks.deck(sectionCounts: [6])
        var new = old
        let card = new.sections[0].cards.remove(at: 0)
        new.sections[0].cards.append(card)
        let diff = DeckDiff(from: old, to: new)
        XCTAssertEqual(diff.steps, [.moveCard(id: "c0", section: 0, after: "c5")])
    }

    func testChangedContentIsOneUpdateAndNothingMoves() {
        let old = SmallDecks.deck(sectionCounts: [3, 2])
        var new = old
        new.sections[1].cards[1].body = "Delayed"
        let diff = DeckDiff(from: old, to: new)
        XCTAssertEqual(diff.steps, [.updateCard(new.sections[1].cards[1])])
        XCTAssertEqual([diff.inserted, diff.deleted, diff.moved, diff.updated], [0, 0, 0, 1])
    }

    func testSectionsWithoutIDsMatchByTitleThenPosition() {
        var old = Deck()
        old.sections = [
            Section(title: "Arrivals", cards: [Card(id: "a")]), Section(title: "Departures", cards: [Card(id: "d")]),
        ]
        var new = Deck()
        // "Departures" keeps its section by title although it is now first; the untitled one
        // takes position 1, which "Arrivals" had.
        new.sections = [
            Section(title: "Departures", cards: [Card(id: "d")]), Section(title: nil, cards: [Card(id: "a")]),
        ]
        let diff = DeckDiff(from: old, to: new)
        XCTAssertEqual(diff.sectionsInserted, 1, "\(diff.steps)")
        XCTAssertEqual(diff.sectionsDeleted, 1)
        XCTAssertEqual(diff.moved, 1, "a moves into the new section")
        XCTAssertEqual(try Self.replay(diff, on: old).sections, new.sections)
    }

    func testAReorderedSectionKeepsTheOneWithMostCards() throws {
        var old = Deck()
        old.sections = [
            Section(title: "Few", id: "few", cards: [Card(id: "a")]),
            Section(title: "Many", id: "many", cards: (0..<5).map { Card(id: "m\($0)") }),
        ]
        var new = Deck()
        new.sections = [old.sections[1], old.sections[0]]
        let diff = DeckDiff(from: old, to: new)
        XCTAssertEqual(diff.moved, 1, "only the small section's card moves: \(diff.steps)")
        XCTAssertEqual(try Self.replay(diff, on: old).sections, new.sections)
    }

    func testALongestIncreasingSubsequence() {
        let values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]
        let positions = longestIncreasingSubsequence(values)
        XCTAssertEqual(positions.count, 6)
        XCTAssertEqual(positions.map { values[$0] }, positions.map { values[$0] }.sorted())
        XCTAssertEqual(Set(positions.map { values[$0] }).count, 6, "strictly increasing")
        XCTAssertEqual(longestIncreasingSubsequence([]), [])
        XCTAssertEqual(heaviestIncreasingSubsequence([1, 0], weights: [1, 5]), [1])
        XCTAssertEqual(heaviestIncreasingSubsequence([0, 2, 1], weights: [1, 1, 3]), [0, 2])
    }
}
