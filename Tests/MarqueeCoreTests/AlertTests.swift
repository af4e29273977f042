import MarqueeCore
import XCTest

/// `alert`: a template's message over everything, faded in and out over the transition duration
/// on the display link's clock, from the first frame that shows it; the scroll goes on under it,
/// and it survives a new deck (`load`) and `apply`.
final class AlertTests: XCTestCase {
    func frame(_ scene: inout Scene, at time: Double) -> DisplayList {
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: time, targetTimestamp: time), into: &list)
        return list
    }

    func alertItem(_ list: DisplayList) -> DisplayList.Item? {
        list.items.last { if case .alert = $0.content { true } else { false } }
    }

    func showNote(_ scene: inout Scene) throws {
        let template = try XCTUnwrap(scene.deck.templates["note"])
        scene.showAlert(Card(id: "alert", template: "note", fields: ["message": "Fire drill"]), template: template)
    }

    func testAnAlertFadesInOverEverythingAndOutAgain() throws {
        var deck = try OverlayTests.deck(overlays: OverlayTests.bands)
        deck.style.transitionDuration = 0.5
        var scene = Scene(deck: deck, viewport: OverlayTests.screen)
        _ = frame(&scene, at: 0)
        XCTAssertFalse(scene.needsFrame)
        try showNote(&scene)
        XCTAssertTrue(scene.needsFrame)
        XCTAssertTrue(scene.hasUnpresentedChange)
        // The fade starts at the first frame that shows it (t = 10), whatever the command's time.
        var list = frame(&scene, at: 10)
        var item = try XCTUnwrap(alertItem(list))
        XCTAssertEqual(item.alpha, 0)
        XCTAssertEqual(list.items.last, item, "drawn last, over the bands")
        // Centered, the template's 120 px high, the full width (no insets).
        XCTAssertEqual(item.frame, Rect(x: 0, y: 240, width: 400, height: 120))
        item = try XCTUnwrap(alertItem(frame(&scene, at: 10.25)))
        XCTAssertEqual(item.alpha, 0.5, accuracy: 1e-9)
        item = try XCTUnwrap(alertItem(frame(&scene, at: 10.5)))
        XCTAssertEqual(item.alpha, 1)
        XCTAssertFalse(scene.needsFrame, "a settled alert costs no frames")
        // The scroll goes on under it.
        _ = scene.scroll(to: .offset(300), duration: 1, curve: .linear, tag: 1)
        list = frame(&scene, at: 11)
        list = frame(&scene, at: 11.5)
        XCTAssertEqual(list.offset, 150, accuracy: 1e-9)
        XCTAssertEqual(alertItem(list)?.alpha, 1)
        XCTAssertTrue(scene.clearAlert())
        XCTAssertFalse(scene.clearAlert(), "already going")
        item = try XCTUnwrap(alertItem(frame(&scene, at: 12)))
        XCTAssertEqual(item.alpha, 1)
        item = try XCTUnwrap(alertItem(frame(&scene, at: 12.25)))
        XCTAssertEqual(item.alpha, 0.5, accuracy: 1e-9)
        XCTAssertNil(alertItem(frame(&scene, at: 12.5)))
        XCTAssertNil(scene.alert)
        XCTAssertFalse(scene.clearAlert(), "no alert to clear")
    }

    func testAnAlertSurvivesANewDeckAndApply() throws {
        var scene = Scene(deck: try OverlayTests.deck(), viewport: OverlayTests.screen)
        try showNote(&scene)
        _ = frame(&scene, at: 0)
        _ = frame(&scene, at: 1)
        // The new deck has no "note" template: the alert keeps the one it was shown with.
        var other = try DeckDecoder.decode(#"{"sections": [{"cards": [{"id": "x"}]}]}"#)
        _ = scene.replaceDeck(other)
        var item = try XCTUnwrap(alertItem(frame(&scene, at: 2)))
        XCTAssertEqual(item.alpha, 1)
        guard case .alert(let card, let template) = item.content else { return XCTFail("an alert") }
        XCTAssertEqual(card.fields["message"], "Fire drill")
        XCTAssertEqual(template.height, 120)
        other.sections[0].cards.append(Card(id: "y"))
        _ = scene.apply(other, tag: 2)
        item = try XCTUnwrap(alertItem(frame(&scene, at: 3)))
        XCTAssertEqual(item.alpha, 1)
    }
}
