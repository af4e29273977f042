import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Attributes at the first frame, mid-transition and the end, for each kind of card edit
/// (default layout: insets 40, spacing 24, cards 160 tall, so a card's pitch is 184).
final class TransitionTests: XCTestCase {
    let viewport = PixelSize(width: 600, height: 800)
    let period = 1.0 / 60

    func scene(_ counts: [Int] = [6]) -> Scene {
        var scene = Scene(deck: SmallDecks.deck(sectionCounts: counts, titled: false), viewport: viewport)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        return scene
    }

    /// The display list at `target`.
    func frame(_ scene: inout Scene, at target: Double) -> DisplayList {
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: target - period, targetTimestamp: target), into: &list)
        return list
    }

    /// A card on its way out (deleted, or the old content of an updated card).
    func item(_ list: DisplayList, id: String, leaving: Bool) -> DisplayList.Item? {
        list.items.first { item in
            if case .leavingCard(let card, _) = item.content { return card.id == id }
            return false
        }
    }

    func card(_ list: DisplayList, _ scene: Scene, id: String) -> DisplayList.Item? {
        list.items.first { item in
            if case .card(_, let section, let index) = item.content {
                return scene.deck.sections[section].cards[index].id == id
            }
            return false
        }
    }

    func smooth(_ f: Double) -> Double { f * f * (3 - 2 * f) }

    func testInsertGrowsInPlaceAndDisplacesTheRest() throws {
        var scene = scene()
        try scene.insertCard(Card(id: "new"), at: 1)
        let start = frame(&scene, at: 2)
        let inserted = try XCTUnwrap(card(start, scene, id: "new"))
        XCTAssertEqual(inserted.frame.y, 40 + 184, "at its final place")
        XCTAssertEqual(inserted.scale, 0.01)
        XCTAssertEqual(inserted.alpha, 0)
        XCTAssertEqual(card(start, scene, id: "c1")?.frame.y, 40 + 184, "displaced cards start where they were")
        let mid = frame(&scene, at: 2 + 0.35 / 2)
        XCTAssertEqual(card(mid, scene, id: "new")!.scale, 0.01 + 0.99 * 0.5, accuracy: 1e-9)
        XCTAssertEqual(card(mid, scene, id: "new")!.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(card(mid, scene, id: "c1")!.frame.y, 40 + 184 + 184 * 0.5, accuracy: 1e-9)
        let quarter = frame(&scene, at: 2 + 0.35 * 0.75)
        XCTAssertEqual(card(quarter, scene, id: "c1")!.frame.y, 40 + 184 + 184 * smooth(0.75), accuracy: 1e-9)
        let end = frame(&scene, at: 2 + 0.35)
        XCTAssertEqual(card(end, scene, id: "new")!.scale, 1)
        XCTAssertEqual(card(end, scene, id: "c1")!.frame.y, 40 + 2 * 184)
        XCTAssertFalse(scene.isTransitioning)
        XCTAssertFalse(scene.needsFrame)
    }

    func testDeleteFallsTiltsAndFadesWhileTheRestCloseUp() throws {
        var scene = scene()
        try scene.deleteCard(at: 1)
        XCTAssertEqual(scene.deck.cardCount, 5, "the deck changes at once")
        let start = frame(&scene, at: 2)
        let falling = try XCTUnwrap(item(start, id: "c1", leaving: true))
        XCTAssertEqual(falling.frame.y, 40 + 184)
        XCTAssertEqual(falling.alpha, 1)
        XCTAssertEqual(start.items.last?.content, falling.content, "drawn on top")
        let mid = frame(&scene, at: 2 + 0.175)
        let midFalling = try XCTUnwrap(item(mid, id: "c1", leaving: true))
        XCTAssertEqual(midFalling.frame.y, 40 + 184 + 800 * 0.6 * 0.5, accuracy: 1e-9)
        XCTAssertEqual(midFalling.rotation, 0.125, accuracy: 1e-9)
        XCTAssertEqual(midFalling.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(card(mid, scene, id: "c2")!.frame.y, 40 + 2 * 184 - 184 * 0.5, accuracy: 1e-9)
        let end = frame(&scene, at: 2.35)
        XCTAssertNil(item(end, id: "c1", leaving: true), "gone at the end")
        XCTAssertEqual(card(end, scene, id: "c2")!.frame.y, 40 + 184)
        XCTAssertFalse(scene.needsFrame)
    }

    func testMoveSlidesTheCardAndTheOthers() throws {
        var scene = scene()
        try scene.moveCard(from: 0, to: 2)
        XCTAssertEqual(scene.deck.sections[0].cards.map(\.id), ["c1", "c2", "c0", "c3", "c4", "c5"])
        let start = frame(&scene, at: 2)
        XCTAssertEqual(card(start, scene, id: "c0")!.frame.y, 40)
        let mid = frame(&scene, at: 2.175)
        XCTAssertEqual(card(mid, scene, id: "c0")!.frame.y, 40 + 184, accuracy: 1e-9, "half of two pitches")
        XCTAssertEqual(card(mid, scene, id: "c2")!.frame.y, 40 + 2 * 184 - 92, accuracy: 1e-9)
        let end = frame(&scene, at: 2.35)
        XCTAssertEqual(card(end, scene, id: "c0")!.frame.y, 40 + 2 * 184)
        XCTAssertEqual(card(end, scene, id: "c1")!.frame.y, 40)
    }

    /// Several edits before one frame (a batch) animate together from what was on screen.
    func testSeveralEditsAnimateAsOne() throws {
        var scene = scene()
        try scene.insertCard(Card(id: "new"), at: 0, tag: 9)
        try scene.deleteCard(at: 3, tag: 9)  // c2
        var tags: [Int] = []
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 2 - period, targetTimestamp: 2), into: &list, finishedTags: &tags)
        XCTAssertEqual(card(list, scene, id: "c1")!.frame.y, 40 + 184, "from where it was")
        XCTAssertEqual(card(list, scene, id: "c3")!.frame.y, 40 + 3 * 184, "c3 stays: one card in above, one out")
        XCTAssertNotNil(item(list, id: "c2", leaving: true))
        _ = scene.frame(
            at: FrameTime(timestamp: 2.175 - period, targetTimestamp: 2.175), into: &list, finishedTags: &tags)
        XCTAssertEqual(card(list, scene, id: "c1")!.frame.y, 40 + 184 + 92, accuracy: 1e-9)
        XCTAssertEqual(card(list, scene, id: "new")!.scale, 0.505, accuracy: 1e-9)
        XCTAssertTrue(tags.isEmpty)
        _ = scene.frame(
            at: FrameTime(timestamp: 2.35 - period, targetTimestamp: 2.35), into: &list, finishedTags: &tags)
        XCTAssertEqual(tags, [9])
        XCTAssertEqual(card(list, scene, id: "c1")!.frame.y, 40 + 2 * 184)
    }

    func testUpdateCrossFadesTheOldContent() throws {
        var scene = scene()
        try scene.updateCard(at: 2, with: Card(id: "", title: "Changed"))
        let start = frame(&scene, at: 2)
        XCTAssertEqual(card(start, scene, id: "c2")!.alpha, 1, "the new content is there at once")
        let old = try XCTUnwrap(item(start, id: "c2", leaving: true))
        XCTAssertEqual(old.alpha, 1)
        if case .leavingCard(let card, _) = old.content { XCTAssertEqual(card.title, "Card 2") }
        let mid = frame(&scene, at: 2 + 0.35 * 0.6 / 2)
        XCTAssertEqual(item(mid, id: "c2", leaving: true)!.alpha, 0.5, accuracy: 1e-9)
        _ = frame(&scene, at: 2.5)
        XCTAssertFalse(scene.needsFrame)
    }

    func testAChangeMidTransitionStartsFromWhatIsOnScreen() throws {
        var scene = scene()
        try scene.insertCard(Card(id: "new"), at: 0)
        _ = frame(&scene, at: 2)
        let mid = frame(&scene, at: 2.175)
        let shown = card(mid, scene, id: "c0")!.frame.y
        try scene.deleteCard(at: 0)  // the card just inserted
        let next = frame(&scene, at: 2.175 + period)
        XCTAssertEqual(card(next, scene, id: "c0")!.frame.y, shown, accuracy: 1e-9, "no jump")
        let end = frame(&scene, at: 3)
        XCTAssertEqual(card(end, scene, id: "c0")!.frame.y, 40, "back where it began")
    }

    func testEditsThatFailChangeNothing() {
        var scene = scene()
        let deck = scene.deck
        XCTAssertThrowsError(try scene.insertCard(Card(id: "c3"), at: 0))
        XCTAssertThrowsError(try scene.insertCard(Card(id: "x"), at: 7))
        XCTAssertThrowsError(try scene.deleteCard(at: 6))
        XCTAssertThrowsError(try scene.moveCard(from: 0, to: 6))
        XCTAssertThrowsError(try scene.updateCard(at: 0, with: Card(id: "c5")))
        XCTAssertEqual(scene.deck, deck)
        XCTAssertFalse(scene.needsFrame)
    }

    func testEditFarOutsideTheViewportAnimatesNothing() throws {
        var scene = scene([200])
        try scene.insertCard(Card(id: "far"), at: 150)
        try scene.deleteCard(at: 190)
        XCTAssertFalse(scene.isTransitioning)
        XCTAssertEqual(scene.deck.cardCount, 200)
    }

    /// Found by the fuzzer: deleting cards while scrolled to the end left the view past the new
    /// end. The view now follows the content back over the transition.
    func testViewFollowsTheContentBackWhenItShrinksBelowTheScroll() throws {
        var scene = scene([10])
        _ = scene.scroll(to: .end, duration: 0, curve: .linear, tag: 1)
        _ = frame(&scene, at: 1.5)
        let oldEnd = scene.layout.maxOffset
        try scene.deleteCard(at: 9)
        try scene.deleteCard(at: 8)
        XCTAssertEqual(scene.layout.maxOffset, oldEnd - 2 * 184)
        var list = DisplayList()
        var finished: [ScrollFinished] = []
        for step in 0...30 {
            if let event = scene.frame(
                at: FrameTime(timestamp: 2 + Double(step - 1) / 60, targetTimestamp: 2 + Double(step) / 60), into: &list
            ) {
                finished.append(event)
            }
            XCTAssertLessThanOrEqual(list.offset, oldEnd)
        }
        XCTAssertEqual(list.offset, scene.layout.maxOffset, "at the new end")
        XCTAssertTrue(finished.isEmpty, "a scroll Marquee started itself reports nothing")
        // A user's scroll heading past the new end ends there, with its one event.
        var other = self.scene([10])
        _ = other.scroll(to: .end, duration: 1, curve: .linear, tag: 7)
        _ = frame(&other, at: 2)
        try other.deleteCard(at: 9)
        var events: [ScrollFinished] = []
        for step in 1...90 {
            if let event = other.frame(
                at: FrameTime(timestamp: 2 + Double(step - 1) / 60, targetTimestamp: 2 + Double(step) / 60), into: &list
            ) {
                events.append(event)
            }
        }
        XCTAssertEqual(events, [ScrollFinished(tag: 7, offset: other.layout.maxOffset, interrupted: false)])
    }
}
