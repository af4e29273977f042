import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Batches all or nothing without a copy of the scene: a batch whose last edit fails leaves the
/// scene exactly as it was (deck, layout, scroll and the transitions under way), and one that
/// succeeds is the same as its edits made one by one.
final class SceneBatchTests: XCTestCase {
    let viewport = PixelSize(width: 500, height: 700)
    let period = 1.0 / 60

    func randomEdit(_ rng: inout DeckDiffTests.Seeded, _ deck: Deck, fresh: inout Int) -> SceneEdit {
        let count = deck.cardCount
        let anyIndex = { (rng: inout DeckDiffTests.Seeded) in Int.random(in: 0..<max(1, count), using: &rng) }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            fresh += 1
            return .insert(.index(Int.random(in: 0...count, using: &rng)), Card(id: "n\(fresh)", title: "New"))
        case 1: return .delete(.index(anyIndex(&rng)))
        case 2: return .move(.index(anyIndex(&rng)), to: .index(anyIndex(&rng)))
        case 3: return .replace(.index(anyIndex(&rng)), Card(id: "", title: "Changed", height: 90))
        case 4 where Bool.random(using: &rng): return .update(.index(anyIndex(&rng)), CardPatch(body: "Patched"))
        case 4:
            fresh += 1
            return .insertSection(
                Int.random(in: 0...deck.sections.count, using: &rng),
                Section(title: "S\(fresh)", cards: [Card(id: "s\(fresh)")]))
        default: return .deleteSection(Int.random(in: 0..<max(1, deck.sections.count), using: &rng))
        }
    }

    /// What the scene draws at `time`, comparable across scenes (sorted: things moving off their
    /// layout place are drawn in the order of a dictionary, which two scenes need not share).
    func drawn(_ scene: inout Scene, at time: Double) -> [String] {
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: time - period, targetTimestamp: time), into: &list)
        return list.items.map { "\($0.content) \($0.frame) \($0.alpha) \($0.scale) \($0.rotation)" }.sorted()
    }

    func testAFailedBatchLeavesTheSceneAsItWas() throws {
        var rng = DeckDiffTests.Seeded(state: 99)
        var fresh = 0
        var failures = 0
        try withEvery("batch", in: 0..<200) { _ in
            let deck = DeckDiffTests.randomDeck(&rng, sectionIDs: false)
            var scene = Scene(deck: deck, viewport: viewport)
            _ = drawn(&scene, at: 1)
            // Something under way when the batch comes: an insert, and a scroll.
            if deck.cardCount > 0 { try scene.perform(.delete(.index(0)), tag: 1) }
            _ = drawn(&scene, at: 1 + period)
            var untouched = scene
            var edits: [SceneEdit] = []
            var probe = scene.deck
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let edit = randomEdit(&rng, probe, fresh: &fresh)
                edits.append(edit)
                var trial = Scene(deck: probe, viewport: viewport)
                if (try? trial.perform(edit)) != nil { probe = trial.deck }
            }
            edits.append(.delete(.id("no such card")))
            XCTAssertThrowsError(try scene.performAll(edits, tag: 2)) { error in
                XCTAssertEqual((error as? SceneBatchError)?.failedEdit.hashValue != nil, true)
            }
            failures += 1
            XCTAssertEqual(scene.deck, untouched.deck)
            XCTAssertEqual(scene.layout.index.entries, untouched.layout.index.entries)
            for step in 2...30 {
                let time = 1 + Double(step) * period
                XCTAssertEqual(drawn(&scene, at: time), drawn(&untouched, at: time), "frame \(step)")
            }
        }
        XCTAssertEqual(failures, 200)
    }

    func testASuccessfulBatchIsItsEditsOneByOne() throws {
        var rng = DeckDiffTests.Seeded(state: 5)
        var fresh = 0
        try withEvery("batch", in: 0..<200) { _ in
            let deck = DeckDiffTests.randomDeck(&rng, sectionIDs: false)
            var batched = Scene(deck: deck, viewport: viewport)
            var oneByOne = batched
            _ = drawn(&batched, at: 1)
            _ = drawn(&oneByOne, at: 1)
            var edits: [SceneEdit] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let edit = randomEdit(&rng, oneByOne.deck, fresh: &fresh)
                if (try? oneByOne.perform(edit, tag: 3)) != nil { edits.append(edit) }
            }
            try batched.performAll(edits, tag: 3)
            XCTAssertEqual(batched.deck, oneByOne.deck, "\(edits)")
            for step in 1...30 {
                let time = 1 + Double(step) * period
                XCTAssertEqual(drawn(&batched, at: time), drawn(&oneByOne, at: time), "frame \(step) \(edits)")
            }
        }
    }
}
