import MarqueeCore
import MarqueeTestSupport
import XCTest

final class SectionAndAppearTests: XCTestCase {
    let viewport = PixelSize(width: 600, height: 900)

    func settled(_ deck: Deck) -> Scene {
        var scene = Scene(deck: deck, viewport: viewport)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        return scene
    }

    func frame(_ scene: inout Scene, at target: Double, tags: inout [Int]) -> DisplayList {
        var list = DisplayList()
        _ = scene.frame(
            at: FrameTime(timestamp: target - 1.0 / 60, targetTimestamp: target), into: &list, finishedTags: &tags)
        return list
    }

    func ids(_ list: DisplayList, _ scene: Scene) -> [String] {
        list.items.compactMap { item in
            if case .card(_, _, let section, let index) = item.content {
                return scene.deck.sections[section].cards[index].id
            }
            return nil
        }
    }

    func testInsertedSectionSlidesInFromTheLeftAndEachCardAnimatesOnce() throws {
        var scene = settled(SmallDecks.deck(sectionCounts: [1, 1]))
        let section = Section(title: "New", cards: [Card(id: "n0"), Card(id: "n1")])
        try scene.insertSection(section, at: 1, tag: 7)
        var tags: [Int] = []
        let start = frame(&scene, at: 2, tags: &tags)
        let shown = ids(start, scene)
        XCTAssertEqual(
            shown, Array(Set(shown)).sorted { shown.firstIndex(of: $0)! < shown.firstIndex(of: $1)! }, "no card twice")
        // The new header and cards start wholly off screen to the left, so they are not drawn.
        XCTAssertNil(start.items.first { $0.content == .header(section: 1) }, "the new header starts off screen")
        XCTAssertFalse(shown.contains("n0"))
        let mid = frame(&scene, at: 2.175, tags: &tags)
        let midN0 = mid.items.first {
            if case .card(_, let index, _, _) = $0.content { return index == 1 } else { return false }
        }!
        XCTAssertEqual(midN0.frame.x, 40 - 0.5 * (40 + 520 + 1), accuracy: 1e-9, "half way from x = -521 to 40")
        let midShown = ids(mid, scene)
        XCTAssertEqual(Set(midShown).count, midShown.count, "no card twice")
        XCTAssertEqual(midShown.filter { $0 == "n0" }.count, 1)
        XCTAssertTrue(tags.isEmpty)
        _ = frame(&scene, at: 2.35, tags: &tags)
        XCTAssertEqual(tags, [7], "the tag is reported once, when everything has arrived")
        _ = frame(&scene, at: 2.4, tags: &tags)
        XCTAssertEqual(tags, [7])
        XCTAssertEqual(scene.deck.sections.map(\.title), ["Section 0", "New", "Section 1"])
    }

    func testDeletedSectionFallsWithItsHeader() throws {
        var scene = settled(SmallDecks.deck(sectionCounts: [2, 1]))
        try scene.deleteSection(at: 0)
        var tags: [Int] = []
        let start = frame(&scene, at: 2, tags: &tags)
        let leaving = start.items.filter {
            switch $0.content {
            case .leavingCard, .leavingHeader: return true
            default: return false
            }
        }
        XCTAssertEqual(leaving.count, 3, "the header and both cards")
        XCTAssertTrue(leaving.allSatisfy { $0.alpha == 1 && $0.rotation == 0 })
        // Section 1's header and card slide up by section 0's header and two cards (88 + 2 × 184).
        let startHeader = start.items.first { $0.content == .header(section: 0) }!
        XCTAssertEqual(startHeader.frame.y, 40 + 88 + 2 * 184)
        let mid = frame(&scene, at: 2.175, tags: &tags)
        let midLeaving = mid.items.filter { if case .leavingCard = $0.content { return true } else { return false } }
        XCTAssertTrue(midLeaving.allSatisfy { abs($0.alpha - 0.5) < 1e-9 && abs($0.rotation - 0.125) < 1e-9 })
        XCTAssertEqual(
            mid.items.first { $0.content == .header(section: 0) }!.frame.y, 40 + (88 + 2 * 184) / 2, accuracy: 1e-9)
        _ = frame(&scene, at: 3, tags: &tags)
        XCTAssertFalse(scene.needsFrame)
        XCTAssertEqual(scene.deck.sections.count, 1)
        XCTAssertThrowsError(try scene.deleteSection(at: 1))
        XCTAssertThrowsError(try scene.insertSection(Section(cards: [Card(id: "c2")]), at: 0)) {
            XCTAssertTrue("\($0)".contains("already exists"))
        }
    }

    func testAppearStaggersTheVisibleItemsInOrder() throws {
        var scene = settled(SmallDecks.deck(sectionCounts: [3]))
        scene.appear(stagger: 0.1, duration: 0.2, tag: 3)
        var tags: [Int] = []
        let start = frame(&scene, at: 2, tags: &tags)
        XCTAssertTrue(start.items.allSatisfy { $0.alpha == 0 && $0.scale == 0.01 }, "everything starts hidden")
        // Items: the header, then cards 0, 1, 2 (order 0...3), each 0.1 s after the previous.
        let at = frame(&scene, at: 2.2, tags: &tags)
        // Header done, card 0 half way, cards 1 (just starting) and 2 waiting.
        for (item, expected) in zip(at.items, [1, 0.5, 0, 0]) { XCTAssertEqual(item.alpha, expected, accuracy: 1e-9) }
        _ = frame(&scene, at: 2.3, tags: &tags)
        XCTAssertTrue(tags.isEmpty)
        let end = frame(&scene, at: 2.5, tags: &tags)
        XCTAssertTrue(end.items.allSatisfy { $0.alpha == 1 && $0.scale == 1 })
        XCTAssertEqual(tags, [3])
    }

    /// After any insert or delete has played out, the frame equals a fresh scene of the edited deck:
    /// every position of decks of 0–8 cards over 1–3 sections.
    func testEveryInsertAndDeleteSettlesOnTheLayout() throws {
        func settledItems(_ scene: Scene) -> [DisplayList.Item] {
            var copy = scene
            var list = DisplayList()
            _ = copy.frame(at: FrameTime(timestamp: 9, targetTimestamp: 10), into: &list)
            return list.items
        }
        try withEvery("cards", in: 0...8) { total in
            for counts in [[total], [total / 2, total - total / 2], [total / 3, total / 3, total - 2 * (total / 3)]] {
                let deck = SmallDecks.deck(sectionCounts: counts)
                for position in 0...deck.cardCount {
                    var scene = settled(deck)
                    try scene.insertCard(Card(id: "new"), at: position)
                    var tags: [Int] = []
                    for step in 0...30 { _ = frame(&scene, at: 2 + Double(step) / 60, tags: &tags) }
                    XCTAssertFalse(scene.needsFrame)
                    XCTAssertEqual(
                        settledItems(scene), settledItems(settled(scene.deck)), "\(counts) insert at \(position)")
                }
                for position in 0..<deck.cardCount {
                    var scene = settled(deck)
                    try scene.deleteCard(at: position)
                    var tags: [Int] = []
                    for step in 0...30 { _ = frame(&scene, at: 2 + Double(step) / 60, tags: &tags) }
                    XCTAssertFalse(scene.needsFrame)
                    XCTAssertEqual(
                        settledItems(scene), settledItems(settled(scene.deck)), "\(counts) delete at \(position)")
                }
            }
        }
    }
}
