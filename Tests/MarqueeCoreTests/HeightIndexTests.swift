import MarqueeCore
import XCTest

final class HeightIndexTests: XCTestCase {
    func entry(_ random: inout SplitMix64) -> HeightIndex.Entry {
        let isMarker = random.next() % 5 == 0
        return .init(
            extent: Double(random.next() % 300), cards: isMarker ? 0 : Int(random.next() % 4) + 1,
            sections: isMarker ? 1 : 0)
    }

    /// Every query checked against a plain array after each of many random inserts and removals.
    func testMatchesNaiveModelUnderRandomEdits() {
        var random = SplitMix64(seed: 42)
        var model: [HeightIndex.Entry] = (0..<50).map { _ in entry(&random) }
        var index = HeightIndex(model)
        for step in 0..<1500 {
            switch random.next() % 3 {
            case 0, 1:
                let position = Int(random.next() % UInt64(model.count + 1))
                let new = entry(&random)
                model.insert(new, at: position)
                index.insert(new, at: position)
            default:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                XCTAssertEqual(index.remove(at: position), model.remove(at: position))
            }
            if step % 50 == 0 { check(index, against: model, random: &random) }
        }
        check(index, against: model, random: &random)
    }

    func check(_ index: HeightIndex, against model: [HeightIndex.Entry], random: inout SplitMix64) {
        XCTAssertEqual(index.entries, model)
        XCTAssertEqual(index.count, model.count)
        var extent = 0.0
        var cards = 0
        for (position, entry) in model.enumerated() {
            let before = index.sums(before: position)
            XCTAssertEqual(before.extent, extent)
            XCTAssertEqual(before.cards, cards)
            if entry.extent > 0 {
                let probe = extent + Double(random.next() % UInt64(entry.extent * 100)) / 100
                XCTAssertEqual(index.position(containingOffset: probe).position, position, "offset \(probe)")
            }
            for card in cards..<(cards + entry.cards) {
                XCTAssertEqual(index.position(containingCard: card).position, position)
            }
            extent += entry.extent
            cards += entry.cards
        }
        XCTAssertEqual(index.totals.extent, extent)
        XCTAssertEqual(index.position(containingOffset: extent + 1).position, model.count)
    }

    func testReplaceUpdatesSums() {
        var index = HeightIndex((0..<10).map { _ in HeightIndex.Entry(extent: 10, cards: 1, sections: 0) })
        index.replace(at: 3, with: .init(extent: 50, cards: 2, sections: 0))
        XCTAssertEqual(index.totals.extent, 140)
        XCTAssertEqual(index.totals.cards, 11)
        XCTAssertEqual(index.sums(before: 5).extent, 90)
    }

    func testDepthStaysLogarithmic() {
        var index = HeightIndex()
        var random = SplitMix64(seed: 7)
        for _ in 0..<100_000 {
            // Different neighbours, so that every entry is a node of its own.
            let extent = Double(random.next() % 1000 + 1)
            index.insert(.init(extent: extent, cards: 1, sections: 0), at: Int(random.next() % UInt64(index.count + 1)))
        }
        // A random binary search tree of n nodes is about 4.3 ln n deep on average (about 50 here).
        XCTAssertLessThan(index.depth, 80)
        let built = HeightIndex(
            (0..<1_000_000).map { HeightIndex.Entry(extent: Double($0 % 2 + 1), cards: 1, sections: 0) })
        XCTAssertEqual(built.depth, 20, "a built index is perfectly balanced")
    }

    /// Equal neighbours share a node: a million cards of one height are one run (plus the section
    /// marker), and the queries still answer for every entry.
    func testEqualEntriesAreOneRun() {
        let card = HeightIndex.Entry(extent: 184, cards: 1, sections: 0)
        let index = HeightIndex([.init(extent: 0, cards: 0, sections: 1)] + Array(repeating: card, count: 1_000_000))
        XCTAssertEqual(index.runCount, 2)
        XCTAssertEqual(index.count, 1_000_001)
        XCTAssertEqual(index.position(containingOffset: 184 * 500_000 + 10).position, 500_001)
        XCTAssertEqual(index.position(containingCard: 999_999).position, 1_000_000)
        XCTAssertEqual(index.sums(before: 700_001).extent, 184 * 700_000)
        XCTAssertEqual(index.position(containingOffset: -5).position, 0)
    }

    /// Runs split, grow and join under random inserts, removals and replacements among a few
    /// kinds of entries (so that equal neighbours are common), checked against a plain array.
    func testRunsMatchNaiveModelUnderRandomEdits() {
        var random = SplitMix64(seed: 9)
        let kinds: [HeightIndex.Entry] = [
            .init(extent: 184, cards: 1, sections: 0), .init(extent: 100.5, cards: 1, sections: 0),
            .init(extent: 0, cards: 0, sections: 1), .init(extent: 88, cards: 0, sections: 1),
            .init(extent: 184, cards: 3, sections: 0),
        ]
        func kind() -> HeightIndex.Entry { kinds[Int(random.next() % 3 == 0 ? random.next() % 5 : 0)] }
        var model: [HeightIndex.Entry] = (0..<40).map { _ in kind() }
        var index = HeightIndex(model)
        for step in 0..<3000 {
            switch random.next() % 4 {
            case 0, 1:
                let position = Int(random.next() % UInt64(model.count + 1))
                let new = kind()
                model.insert(new, at: position)
                index.insert(new, at: position)
            case 2:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                XCTAssertEqual(index.remove(at: position), model.remove(at: position))
            default:
                guard !model.isEmpty else { continue }
                let position = Int(random.next() % UInt64(model.count))
                let new = kind()
                model[position] = new
                index.replace(at: position, with: new)
            }
            if step % 100 == 0 {
                check(index, against: model, random: &random)
                XCTAssertLessThanOrEqual(index.runCount, model.count)
                var sections = 0
                for (position, entry) in model.enumerated() where entry.sections == 1 {
                    XCTAssertEqual(index.position(ofSection: sections).position, position)
                    sections += 1
                }
            }
        }
        check(index, against: model, random: &random)
    }
}
