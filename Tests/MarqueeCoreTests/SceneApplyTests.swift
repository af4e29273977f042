import MarqueeCore
import MarqueeTestSupport
import XCTest

/// `apply` on a scene: every change animated under one tag, and once the transitions end the
/// scene shows exactly what a scene made from the new state shows.
final class SceneApplyTests: XCTestCase {
    let viewport = PixelSize(width: 500, height: 900)
    let period = 1.0 / 60

    func frame(_ scene: inout Scene, at time: Double, tags: inout [Int]) -> DisplayList {
        var list = DisplayList()
        _ = scene.frame(
            at: FrameTime(timestamp: time - period, targetTimestamp: time), into: &list, finishedTags: &tags)
        return list
    }

    /// What a list shows, comparable across scenes: each item's content and frame.
    func shown(_ list: DisplayList) -> [String] {
        list.items.map { "\($0.content) \($0.frame) \($0.alpha)" }
    }

    func testEveryPairOfSmallStatesEndsAsTheNewStateDrawnAfresh() {
        var rng = DeckDiffTests.Seeded(state: 17)
        withEvery("pair", in: 0..<400) { pair in
            let old = DeckDiffTests.randomDeck(&rng, sectionIDs: pair % 2 == 0)
            let new = DeckDiffTests.randomDeck(&rng, sectionIDs: pair % 2 == 0)
            var scene = Scene(deck: old, viewport: viewport)
            var tags: [Int] = []
            _ = frame(&scene, at: 1, tags: &tags)
            let applied = scene.apply(new, tag: 7)
            scene.markTag(7)
            XCTAssertEqual(scene.deck.sections, new.sections)
            let fresh = CollectionLayout(deck: new, viewport: viewport)
            XCTAssertEqual(scene.layout.index.entries, fresh.index.entries, "the layout follows at once")
            var finishedAt: Double?
            var time = 1.0
            while time < 3 {
                time += period
                var ended: [Int] = []
                let list = frame(&scene, at: time, tags: &ended)
                if ended.contains(7), finishedAt == nil { finishedAt = time }
                if time > 1.05, time < 1.2, applied.diff.isEmpty {
                    XCTAssertFalse(scene.isTransitioning, "an empty difference animates nothing")
                }
                _ = list
            }
            XCTAssertNotNil(finishedAt, "the batch's tag ends")
            var freshScene = Scene(deck: new, viewport: viewport)
            var ignored: [Int] = []
            _ = frame(&freshScene, at: 1, tags: &ignored)
            XCTAssertEqual(
                shown(frame(&scene, at: 3.5, tags: &ignored)), shown(frame(&freshScene, at: 3.5, tags: &ignored)))
        }
    }

    func testApplyingTheShownStateChangesNothing() {
        let deck = SmallDecks.deck(sectionCounts: [3, 2])
        var scene = Scene(deck: deck, viewport: viewport)
        var tags: [Int] = []
        _ = frame(&scene, at: 1, tags: &tags)
        let applied = scene.apply(deck, tag: 1)
        XCTAssertTrue(applied.diff.isEmpty)
        XCTAssertEqual(applied.settingsChanged, 0)
        XCTAssertFalse(scene.isTransitioning)
    }

    func testAChangedCardHeightSlidesTheCardsBelow() {
        var deck = SmallDecks.deck(sectionCounts: [4], titled: false)
        var scene = Scene(deck: deck, viewport: viewport)
        var tags: [Int] = []
        let before = frame(&scene, at: 1, tags: &tags)
        let y = { (list: DisplayList, index: Int) in
            list.items.first { if case .card(_, index, _, _) = $0.content { true } else { false } }!.frame.y
        }
        deck.sections[0].cards[0].height = 300
        let applied = scene.apply(deck, tag: 2)
        XCTAssertEqual(applied.diff.updated, 1)
        // The transition starts at the first frame after the change (drawn at progress 0).
        _ = frame(&scene, at: 1 + period, tags: &tags)
        let during = frame(&scene, at: 1 + period + scene.transitionDuration / 2, tags: &tags)
        let after = frame(&scene, at: 3, tags: &tags)
        XCTAssertEqual(y(after, 1) - y(before, 1), 300 - deck.layout.cardHeight, accuracy: 0.001)
        XCTAssertGreaterThan(y(during, 1), y(before, 1), "the card below is on its way")
        XCTAssertLessThan(y(during, 1), y(after, 1))
    }

    func testANewLayoutSlidesEverythingToItsPlace() {
        var deck = SmallDecks.deck(sectionCounts: [4], titled: false)
        var scene = Scene(deck: deck, viewport: viewport)
        var tags: [Int] = []
        let before = frame(&scene, at: 1, tags: &tags)
        deck.layout.spacing = 80
        let applied = scene.apply(deck, tag: 3)
        XCTAssertTrue(applied.layoutChanged)
        XCTAssertTrue(applied.diff.isEmpty)
        // The transition starts at the first frame after the change (drawn at progress 0).
        _ = frame(&scene, at: 1 + period, tags: &tags)
        let during = frame(&scene, at: 1 + period + scene.transitionDuration / 2, tags: &tags)
        let after = frame(&scene, at: 3, tags: &tags)
        let lastY = { (list: DisplayList) in list.items.last!.frame.y }
        XCTAssertGreaterThan(lastY(during), lastY(before))
        XCTAssertLessThan(lastY(during), lastY(after))
        XCTAssertEqual(lastY(after), CollectionLayout(deck: deck, viewport: viewport).frame(ofCard: 3)!.y)
    }

    /// The difference found on a loader thread from a copy of the deck: replayed when the deck is
    /// still that copy, found again when an edit came in between.
    func testADifferenceFoundFromACopyIsUsedOnlyWhileTheDeckIsThatCopy() throws {
        let old = SmallDecks.deck(sectionCounts: [3, 2])
        var new = old
        new.sections[0].cards.remove(at: 1)
        new.sections[1].cards.append(Card(id: "n", title: "New"))

        var scene = Scene(deck: old, viewport: viewport)
        let found = (diff: DeckDiff(from: scene.deck, to: new), version: scene.deckVersion)
        let replayed = scene.apply(new, precomputed: found, tag: 1)
        XCTAssertEqual(replayed.diff, found.diff)
        XCTAssertEqual(scene.deck.sections, new.sections)

        var edited = Scene(deck: old, viewport: viewport)
        let stale = (diff: DeckDiff(from: edited.deck, to: new), version: edited.deckVersion)
        try edited.insertCard(Card(id: "meanwhile"), at: 0)
        XCTAssertNotEqual(edited.deckVersion, stale.version, "an edit changes the version")
        let again = edited.apply(new, precomputed: stale, tag: 2)
        XCTAssertEqual(edited.deck.sections, new.sections, "the difference was found again")
        XCTAssertEqual(again.diff.deleted, 2, "the card inserted meanwhile is gone too")
    }

    /// A state with templates the shown deck does not have: cards naming them come in (each edit
    /// checks its card's template), a changed template height moves its cards, and the scene ends
    /// as the new state drawn afresh.
    func testNewTemplatesComeWithTheCardsThatNameThem() throws {
        let old = try DeckDecoder.decode(
            #"{"templates": {"row": {"height": 100, "elements": [{"text": "name", "left": 0, "top": 0}]}},"#
                + #" "sections": [{"cards": [{"id": "a", "template": "row", "fields": {"name": "A"}}, {"id": "b"}]}]}"#)
        let new = try DeckDecoder.decode(
            #"{"templates": {"row": {"height": 150, "elements": [{"text": "name", "left": 0, "top": 0}]},"#
                + #" "big": {"height": 200, "elements": [{"text": "name", "left": 0, "top": 0}]}},"#
                + #" "sections": [{"cards": [{"id": "a", "template": "row", "fields": {"name": "A"}},"#
                + #" {"id": "n", "template": "big", "fields": {"name": "New"}}, {"id": "b"}]}]}"#)
        var scene = Scene(deck: old, viewport: viewport)
        var tags: [Int] = []
        _ = frame(&scene, at: 1, tags: &tags)
        let applied = scene.apply(new, tag: 9)
        XCTAssertEqual(applied.diff.inserted, 1)
        XCTAssertTrue(applied.templatesChanged)
        XCTAssertEqual(applied.settingsChanged, 1)
        XCTAssertEqual(scene.deck, new)
        XCTAssertEqual(scene.layout.index.entries, CollectionLayout(deck: new, viewport: viewport).index.entries)
        _ = frame(&scene, at: 2, tags: &tags)  // the transitions start here
        var fresh = Scene(deck: new, viewport: viewport)
        _ = frame(&fresh, at: 1, tags: &tags)
        XCTAssertEqual(shown(frame(&scene, at: 5, tags: &tags)), shown(frame(&fresh, at: 5, tags: &tags)))
    }

    /// A card that moves and changes to a template that replaces the one it had: its new content
    /// (and template) comes before the move, which would otherwise re-insert it naming a template
    /// the deck no longer has.
    func testAMovedCardChangingToANewTemplate() throws {
        let old = try DeckDecoder.decode(
            #"{"templates": {"row": {"height": 100, "elements": [{"text": "name", "left": 0, "top": 0}]}},"#
                + #" "sections": [{"cards": [{"id": "a", "template": "row", "fields": {"name": "A"}}, {"id": "b"}, {"id": "c"}]}]}"#
        )
        let new = try DeckDecoder.decode(
            #"{"templates": {"row2": {"height": 90, "elements": [{"text": "name", "left": 0, "top": 0}]}},"#
                + #" "sections": [{"cards": [{"id": "b"}, {"id": "c"}, {"id": "a", "template": "row2", "fields": {"name": "A"}}]}]}"#
        )
        var scene = Scene(deck: old, viewport: viewport)
        var tags: [Int] = []
        _ = frame(&scene, at: 1, tags: &tags)
        let applied = scene.apply(new, tag: 3)
        XCTAssertEqual([applied.diff.moved, applied.diff.updated], [1, 1])
        XCTAssertEqual(scene.deck, new)
    }
}
