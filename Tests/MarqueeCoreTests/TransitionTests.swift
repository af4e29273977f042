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

    /// The card `id` as drawn: when `leaving`, its copy on the way out (deleted, or the old
    /// content of an updated card); otherwise the card of the deck. Each is looked for only
    /// among its own kind, so a deleted card still drawn as a deck card, or a leaving copy
    /// missing, is found out.
    func item(_ list: DisplayList, _ scene: Scene, id: String, leaving: Bool) -> DisplayList.Item? {
        list.items.first { item in
            switch item.content {
            case .leavingCard(let card, _), .fadingRows(let card, _, _): return leaving && card.id == id
            case .card(let card, _, _, _): return !leaving && card.id == id
            case .header, .leavingHeader, .band, .alert: return false
            }
        }
    }

    func card(_ list: DisplayList, _ scene: Scene, id: String) -> DisplayList.Item? {
        item(list, scene, id: id, leaving: false)
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
        let falling = try XCTUnwrap(item(start, scene, id: "c1", leaving: true))
        XCTAssertEqual(falling.frame.y, 40 + 184)
        XCTAssertEqual(falling.alpha, 1)
        XCTAssertEqual(start.items.last?.content, falling.content, "drawn on top")
        XCTAssertNil(card(start, scene, id: "c1"), "no longer a card of the deck")
        XCTAssertEqual(card(start, scene, id: "c2")?.alpha, 1, "the others are not leaving")
        let mid = frame(&scene, at: 2 + 0.175)
        let midFalling = try XCTUnwrap(item(mid, scene, id: "c1", leaving: true))
        XCTAssertEqual(midFalling.frame.y, 40 + 184 + 800 * 0.6 * 0.5, accuracy: 1e-9)
        XCTAssertEqual(midFalling.rotation, 0.125, accuracy: 1e-9)
        XCTAssertEqual(midFalling.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(card(mid, scene, id: "c2")!.frame.y, 40 + 2 * 184 - 184 * 0.5, accuracy: 1e-9)
        let end = frame(&scene, at: 2.35)
        XCTAssertNil(item(end, scene, id: "c1", leaving: true), "gone at the end")
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
        XCTAssertNotNil(item(list, scene, id: "c2", leaving: true))
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

    /// The batch `insert 0 n1`, `delete id:d3`, `move 4 0`: n1 ends at index 1 (d4 moves above
    /// it), so it grows there from its first frame to its last, never where the insert alone
    /// would have put it (index 0), and never slides.
    func testACardInsertedInABatchGrowsAtItsPlaceAfterTheWholeBatch() throws {
        var deck = SmallDecks.deck(sectionCounts: [8], titled: false)
        for index in 0..<8 { deck.sections[0].cards[index].id = "d\(index)" }
        var scene = Scene(deck: deck, viewport: viewport)
        _ = frame(&scene, at: 1)
        var batch = scene
        try batch.insertCard(Card(id: "n1", title: "New"), at: 0, tag: 4)
        try batch.deleteCard(at: try XCTUnwrap(batch.deck.globalIndex(ofCardWithID: "d3")), tag: 4)
        try batch.moveCard(from: 4, to: 0, tag: 4)
        scene = batch
        XCTAssertEqual(scene.deck.sections[0].cards.map(\.id), ["d4", "n1", "d0", "d1", "d2", "d5", "d6", "d7"])
        let finalFrame = try XCTUnwrap(scene.layout.frame(ofCard: 1))
        var scales: [Double] = []
        var tags: [Int] = []
        var list = DisplayList()
        for step in 0...21 {
            let target = 2 + Double(step) / 60
            _ = scene.frame(
                at: FrameTime(timestamp: target - period, targetTimestamp: target), into: &list, finishedTags: &tags)
            let inserted = try XCTUnwrap(card(list, scene, id: "n1"), "frame \(step)")
            XCTAssertEqual(inserted.frame, finalFrame, "frame \(step): in place from the first frame")
            scales.append(inserted.scale)
        }
        XCTAssertEqual(scales.first, 0.01)
        XCTAssertEqual(scales.last, 1)
        XCTAssertEqual(scales, scales.sorted(), "it only grows")
        XCTAssertEqual(tags, [4])
    }

    /// Likewise a section inserted in a batch slides in to its place after the whole batch: its
    /// header and card keep their final y on every frame, moving only from the left.
    func testASectionInsertedInABatchSlidesToItsPlaceAfterTheWholeBatch() throws {
        var scene = self.scene([3])
        var batch = scene
        try batch.insertSection(Section(title: "New", cards: [Card(id: "s0")]), at: 0)
        try batch.insertCard(Card(id: "top"), at: 0)  // into the new section, above s0
        scene = batch
        let header = try XCTUnwrap(scene.layout.headerFrame(ofSection: 0))
        let s0 = try XCTUnwrap(scene.layout.frame(ofCard: 1))
        var previousX = -Double.infinity
        for step in 0...21 {
            let list = frame(&scene, at: 2 + Double(step) / 60)
            let shownHeader = list.items.first { $0.content == .header(section: 0) }
            if let shownHeader { XCTAssertEqual(shownHeader.frame.y, header.y, "frame \(step)") }
            // Listed once it has come in from past the left edge.
            guard let card = card(list, scene, id: "s0") else { continue }
            XCTAssertEqual(card.frame.y, s0.y, "frame \(step): s0 slides along its final row")
            XCTAssertGreaterThanOrEqual(card.frame.x, previousX, "frame \(step): from the left only")
            previousX = card.frame.x
        }
        XCTAssertEqual(previousX, s0.x, "arrived")
    }

    func testUpdateCrossFadesTheOldContent() throws {
        var scene = scene()
        try scene.updateCard(at: 2, with: Card(id: "", title: "Changed"))
        let start = frame(&scene, at: 2)
        XCTAssertEqual(card(start, scene, id: "c2")!.alpha, 1, "the new content is there at once")
        let old = try XCTUnwrap(item(start, scene, id: "c2", leaving: true))
        XCTAssertEqual(old.alpha, 1)
        if case .leavingCard(let card, _) = old.content { XCTAssertEqual(card.title, "Card 2") }
        let mid = frame(&scene, at: 2 + 0.35 / 2)
        XCTAssertEqual(item(mid, scene, id: "c2", leaving: true)!.alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(card(mid, scene, id: "c2")!.alpha, 1)
        _ = frame(&scene, at: 2.35)
        XCTAssertFalse(scene.needsFrame)
    }

    /// The crossfade lasts the deck's `transitionDuration`: with 1 s, the old content is half
    /// visible at 0.5 s, still there at 0.9 s, and gone at 1 s; in between it follows the curve.
    func testUpdateCrossFadeFollowsTheDecksDuration() throws {
        var deck = SmallDecks.deck(sectionCounts: [6], titled: false)
        deck.style.transitionDuration = 1
        var scene = Scene(deck: deck, viewport: viewport)
        _ = frame(&scene, at: 1)
        try scene.updateCard(at: 2, with: Card(id: "", title: "Changed"))
        for step in 0...60 {
            let elapsed = Double(step) / 60
            let list = frame(&scene, at: 2 + elapsed)
            let old = item(list, scene, id: "c2", leaving: true)
            if step == 60 {
                XCTAssertNil(old, "gone at 1 s")
            } else {
                let shown = try XCTUnwrap(old, "still fading at \(elapsed) s")
                XCTAssertEqual(shown.alpha, 1 - smooth(elapsed), accuracy: 1e-9, "at \(elapsed) s")
            }
        }
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
