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
            index.insert(.init(extent: 1, cards: 1, sections: 0), at: Int(random.next() % UInt64(index.count + 1)))
        }
        // A random binary search tree of n nodes is about 4.3 ln n deep on average (about 50 here).
        XCTAssertLessThan(index.depth, 80)
        let built = HeightIndex((0..<1_000_000).map { _ in HeightIndex.Entry(extent: 1, cards: 1, sections: 0) })
        XCTAssertEqual(built.depth, 20, "a built index is perfectly balanced")
    }
}
