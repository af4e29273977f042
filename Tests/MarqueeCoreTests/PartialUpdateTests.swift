import MarqueeCore
import XCTest

/// `update` with fields: only the elements showing a changed field crossfade, in their rows.
final class PartialUpdateTests: XCTestCase {
    private func scene() throws -> Scene {
        let deck = try DeckDecoder.decode(
            """
            {"layout": {"insets": 10, "spacing": 10, "cardHeight": 100},
             "templates": {"row": {"height": 120, "elements": [
               {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 8},
               {"text": "time", "left": 20, "top": 10, "width": 100, "size": 30},
               {"text": "status", "right": 10, "top": 60, "width": 200, "size": 20,
                "color": {"field": "status", "map": {"Late": "#d64545"}}}
             ]}},
             "sections": [{"cards": [
               {"id": "a", "template": "row", "fields": {"time": "06:20", "status": "On time", "accent": "#2ea05a"}},
               {"id": "b", "title": "Plain", "body": "card", "accent": "#2ea05a"}
             ]}]}
            """)
        var scene = Scene(deck: deck, viewport: PixelSize(width: 400, height: 300))
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        return scene
    }

    func testAFieldUpdateFadesOnlyTheRowsOfItsElements() throws {
        var scene = try scene()
        try scene.updateCard(.id("a"), with: CardPatch(fields: ["status": "Late"]))
        XCTAssertEqual(
            scene.deck.sections[0].cards[0].fields, ["time": "06:20", "status": "Late", "accent": "#2ea05a"])
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 1, targetTimestamp: 1.1), into: &list)
        let fading = list.items.compactMap { item -> [Range<Int>]? in
            if case .fadingRows(let card, _, let rows) = item.content, card.id == "a" { return rows }
            return nil
        }
        // The status element: top 60, one 25 px line, widened by half its size (10) each way.
        XCTAssertEqual(fading, [[50..<95]])
        XCTAssertFalse(
            list.items.contains { if case .leavingCard = $0.content { return true } else { return false } },
            "the card does not fade whole")
    }

    func testAnUnchangedValueFadesNothing() throws {
        var scene = try scene()
        try scene.updateCard(.id("a"), with: CardPatch(fields: ["time": "06:20"]))
        XCTAssertFalse(scene.needsFrame)
    }

    func testUpdatingAPlainCardKeepsTheKeysItDoesNotName() throws {
        var scene = try scene()
        try scene.updateCard(.id("b"), with: CardPatch(body: "New body"))
        let card = scene.deck.sections[0].cards[1]
        XCTAssertEqual(card.title, "Plain")
        XCTAssertEqual(card.accent, Color(hex: "#2ea05a"))
        XCTAssertEqual(card.body, "New body")
        try scene.updateCard(.id("b"), with: Card(id: "", body: "Replaced"))
        XCTAssertEqual(scene.deck.sections[0].cards[1].title, "", "replace takes the card whole")
    }

    func testATemplatedCardTakesItsTemplatesHeight() throws {
        let scene = try scene()
        XCTAssertEqual(scene.layout.frame(ofCard: 0)?.height, 120)
        XCTAssertEqual(scene.layout.frame(ofCard: 1)?.height, 100)
    }

    func testACardNamingAnUnknownTemplateIsRefused() throws {
        var scene = try scene()
        XCTAssertThrowsError(try scene.insertCard(Card(id: "z", template: "nope"), at: 0))
        XCTAssertThrowsError(try scene.updateCard(.id("a"), with: CardPatch(template: "nope")))
    }
}
