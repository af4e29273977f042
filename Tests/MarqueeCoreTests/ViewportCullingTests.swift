import Glibc
import MarqueeTestSupport
import XCTest

@testable import MarqueeCore

/// The display list (and so the trace) holds exactly the items drawn, which are exactly those
/// whose scaled and turned box meets the viewport. Checked on every frame of transitions that
/// move things past every edge, against an oracle built from the scene's own state before the
/// frame: every tweening, leaving and laid-out item with its attributes, no viewport test.
final class ViewportCullingTests: XCTestCase {
    let viewport = PixelSize(width: 600, height: 800)

    /// Insets wider than the screen leave the cards 0 pixels wide: nothing of them is drawn, so
    /// none is listed (the trace listed them with `w` 0). Headers keep their width and stay.
    func testCardsLeftWithoutWidthAreNotListed() {
        var deck = SmallDecks.deck(sectionCounts: [4])
        deck.layout.insets = EdgeInsets(top: 40, left: 350, bottom: 40, right: 350)
        var scene = Scene(deck: deck, viewport: viewport)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        let cards = list.items.filter { if case .card = $0.content { true } else { false } }
        XCTAssertEqual(cards.map(\.frame.width), [], "no card of width 0 is listed")
        deck.layout.insets = EdgeInsets(all: 40)
        scene = Scene(deck: deck, viewport: viewport)
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        XCTAssertFalse(list.items.filter { if case .card = $0.content { true } else { false } }.isEmpty)
    }

    /// A settled scene of `counts` titled sections, scrolled to `offset`.
    func scene(_ counts: [Int], offset: Double = 0) -> Scene {
        var scene = Scene(deck: SmallDecks.deck(sectionCounts: counts), viewport: viewport)
        _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        return scene
    }

    /// What the frame at `target` would draw were nothing culled: names and viewport-frame items.
    func everything(_ scene: Scene, at target: Double, offset: Double) -> [String: DisplayList.Item] {
        var result: [String: DisplayList.Item] = [:]
        func add(_ name: String, _ content: DisplayList.Content, _ attributes: ItemAttributes) {
            var item = DisplayList.Item(content: content, frame: attributes.frame.offsetBy(dy: -offset))
            item.alpha = attributes.alpha
            item.scale = attributes.scale
            item.rotation = attributes.rotation
            result[name] = item
        }
        var tweened: [Scene.ItemKey: ItemAttributes] = [:]
        for (key, active) in scene.tweens {
            var tween = active.tween
            tweened[key] = tween.value(at: target).attributes
        }
        // Everything laid out within a screen of the viewport, where it is not tweening.
        var laidOut: [LayoutItem] = []
        let height = Double(viewport.height)
        scene.layout.items(from: offset - height, to: offset + 2 * height, into: &laidOut)
        for item in laidOut {
            switch item {
            case .header(let section, let frame):
                add(
                    "header \(section)", .header(section: section),
                    tweened[.header(section)] ?? ItemAttributes(frame: frame))
            case .card(let index, let section, let itemIndex, let frame):
                let id = scene.deck.sections[section].cards[itemIndex].id
                add(
                    "card \(id)",
                    .card(
                        scene.deck.sections[section].cards[itemIndex], index: index, section: section, item: itemIndex),
                    tweened[.card(id)] ?? ItemAttributes(frame: frame))
            }
        }
        for (key, attributes) in tweened {
            switch key {
            case .header(let section): add("header \(section)", .header(section: section), attributes)
            case .card(let id):
                let index = scene.deck.globalIndex(ofCardWithID: id)!
                let (section, item) = try! scene.deck.location(ofCard: index)
                add(
                    "card \(id)",
                    .card(scene.deck.sections[section].cards[item], index: index, section: section, item: item),
                    attributes)
            }
        }
        for leaving in scene.leaving {
            var tween = leaving.tween
            let (attributes, ended) = tween.value(at: target)
            // A leaving item is drawn until its way out ends (its last value is alpha 0).
            if ended { continue }
            switch leaving.content {
            case .leavingCard(let card, _), .fadingRows(let card, _, _):
                add("leaving \(card.id)", leaving.content, attributes)
            case .leavingHeader(_, let section): add("leaving header \(section)", leaving.content, attributes)
            case .card, .header, .band, .alert: XCTFail("only leaving items leave")
            }
        }
        return result
    }

    func name(_ item: DisplayList.Item, _ scene: Scene) -> String {
        switch item.content {
        case .card(let card, _, _, _): return "card \(card.id)"
        case .header(let section): return "header \(section)"
        case .leavingCard(let card, _), .fadingRows(let card, _, _): return "leaving \(card.id)"
        case .leavingHeader(_, let section): return "leaving header \(section)"
        case .band(_, let slot): return "band \(slot)"
        case .alert: return "alert"
        }
    }

    /// The turned, scaled rectangle's corners against the viewport, by their extremes.
    func meetsViewport(_ item: DisplayList.Item) -> Bool {
        let center = (x: item.frame.x + item.frame.width / 2, y: item.frame.y + item.frame.height / 2)
        var xs: [Double] = []
        var ys: [Double] = []
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
            let x = dx * item.frame.width / 2 * item.scale
            let y = dy * item.frame.height / 2 * item.scale
            xs.append(center.x + x * cos(item.rotation) - y * sin(item.rotation))
            ys.append(center.y + x * sin(item.rotation) + y * cos(item.rotation))
        }
        return xs.min()! < Double(viewport.width) && xs.max()! > 0 && ys.min()! < Double(viewport.height)
            && ys.max()! > 0
    }

    /// Plays `edit` on `scene` and checks every frame until it has settled; returns how many items
    /// were culled on the way (so a scenario that never crosses an edge is noticed).
    @discardableResult
    func check(_ label: String, _ scene: Scene, _ edit: (inout Scene) throws -> Void) throws -> Int {
        var scene = scene
        try edit(&scene)
        var list = DisplayList()
        var culled = 0
        for step in 0...30 {
            let target = 2 + Double(step) / 60
            let before = scene
            _ = scene.frame(at: FrameTime(timestamp: target - 1.0 / 60, targetTimestamp: target), into: &list)
            let all = everything(before, at: target, offset: list.offset)
            let expected = all.filter { meetsViewport($0.value) }
            let listed = list.items.map { name($0, scene) }
            XCTAssertEqual(Set(listed).count, listed.count, "\(label) frame \(step): listed once")
            for item in list.items {
                let itemName = name(item, scene)
                XCTAssertTrue(meetsViewport(item), "\(label) frame \(step): \(itemName) at \(item.frame) is outside")
                XCTAssertEqual(item, expected[itemName], "\(label) frame \(step): \(itemName) drawn as it is")
            }
            XCTAssertEqual(
                Set(expected.keys).subtracting(listed), [], "\(label) frame \(step): in the viewport but not drawn")
            culled += all.count - expected.count
        }
        XCTAssertFalse(scene.needsFrame, "\(label): settled")
        return culled
    }

    func testEveryFrameListsExactlyTheItemsThatMeetTheViewport() throws {
        let top = scene([3, 40])
        let middle = scene([3, 40], offset: 2000)
        for (where_, base) in [("top", top), ("middle", middle)] {
            try check("\(where_) insert", base) { try $0.insertCard(Card(id: "new"), at: 12) }
            try check("\(where_) delete", base) { try $0.deleteCard(at: 12) }
            try check("\(where_) move far down", base) { try $0.moveCard(from: 12, to: 40) }
            try check("\(where_) move far up", base) { try $0.moveCard(from: 42, to: 11) }
            try check("\(where_) section delete", base) { try $0.deleteSection(at: 1) }
            try check("\(where_) section insert", base) {
                try $0.insertSection(Section(title: "New", cards: [Card(id: "n0"), Card(id: "n1")]), at: 1)
            }
        }
        // Falling cards leave through the bottom, a section slides in through the left edge and a
        // card moved from far away comes in through the bottom: each of these culls something.
        XCTAssertGreaterThan(try check("fall", top) { try $0.deleteCard(at: 1) }, 0)
        XCTAssertGreaterThan(
            try check("slide", top) { try $0.insertSection(Section(title: "In", cards: [Card(id: "i")]), at: 0) }, 0)
        XCTAssertGreaterThan(try check("from far", top) { try $0.moveCard(from: 40, to: 0) }, 0)
    }
}
