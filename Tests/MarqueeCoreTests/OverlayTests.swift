import MarqueeCore
import XCTest

/// Overlay bands: the content scrolls in the space between them (the scroll range shrinks by
/// exactly the bands), its items are placed below the top bands and culled to that space, the
/// bands are listed last at their fixed places, and the deck's `overlays` are checked.
final class OverlayTests: XCTestCase {
    static let screen = PixelSize(width: 400, height: 600)

    /// 20 cards of 100 px, no insets or spacing: 2,000 px of content.
    static func deck(overlays: String = "") throws -> Deck {
        let cards = (0..<20).map { "{\"id\": \"c\($0)\"}" }.joined(separator: ",")
        return try DeckDecoder.decode(
            """
            {"layout": {"insets": 0, "spacing": 0, "cardHeight": 100},
             "templates": {"bar": {"elements": [{"clock": "%H:%M", "left": 8, "top": 8, "width": 100}]},
                           "note": {"height": 120, "elements": [{"text": "message", "left": 8, "right": 8, "top": 8}]}},
             \(overlays.isEmpty ? "" : "\"overlays\": \(overlays),")
             "sections": [{"cards": [\(cards)]}]}
            """)
    }

    static let bands = """
        [{"edge": "top", "height": 96, "template": "bar", "fields": {"title": "Today"}},
         {"edge": "bottom", "height": 48, "template": "bar"}]
        """

    func frame(_ scene: inout Scene, at time: Double) -> DisplayList {
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: time, targetTimestamp: time), into: &list)
        return list
    }

    func testTheScrollRangeShrinksExactlyByTheBands() throws {
        let plain = Scene(deck: try Self.deck(), viewport: Self.screen)
        let banded = Scene(deck: try Self.deck(overlays: Self.bands), viewport: Self.screen)
        XCTAssertEqual(plain.layout.maxOffset, 2_000 - 600)
        XCTAssertEqual(banded.viewport, PixelSize(width: 400, height: 600 - 96 - 48))
        XCTAssertEqual(banded.layout.maxOffset, plain.layout.maxOffset + 96 + 48)
        XCTAssertEqual(banded.scrollSpaceTop, 96)
        XCTAssertEqual(banded.screenSize, Self.screen)
        // percent 50 is half of the shrunk range.
        var scene = banded
        guard case .success(let offset) = ScrollTarget.percent(50).resolve(in: scene.layout, deck: scene.deck) else {
            return XCTFail("percent 50 resolves")
        }
        XCTAssertEqual(offset, (2_000 - 456) / 2)
        _ = scene.scroll(to: .end, duration: 0, curve: .linear, tag: 1)
        let list = frame(&scene, at: 1)
        XCTAssertEqual(list.offset, 1_544)
        let last = try XCTUnwrap(list.items.last { if case .card = $0.content { true } else { false } })
        XCTAssertEqual(last.frame.maxY, 600 - 48, "the last card ends on the bottom band's edge")
    }

    func testContentIsPlacedBelowTheTopBandAndCulledToTheSpace() throws {
        var scene = Scene(deck: try Self.deck(overlays: Self.bands), viewport: Self.screen)
        var list = frame(&scene, at: 0)
        let cards = list.items.compactMap { item -> (String, Rect)? in
            guard case .card(let card, _, _, _) = item.content else { return nil }
            return (card.id, item.frame)
        }
        XCTAssertEqual(cards.first?.0, "c0")
        XCTAssertEqual(cards.first?.1.y, 96, "the first card starts under the top band")
        // The space is 96..<552: cards 0 to 4 (the fifth ends at 596, partly under the bottom band).
        XCTAssertEqual(cards.map(\.0), ["c0", "c1", "c2", "c3", "c4"])
        // The bands come last, at their fixed places, whatever the scroll.
        let bands = list.items.suffix(2)
        XCTAssertEqual(
            bands.map(\.frame), [Rect(x: 0, y: 0, width: 400, height: 96), Rect(x: 0, y: 552, width: 400, height: 48)])
        guard case .band(let top, 0) = bands.first!.content, case .band(_, 1) = bands.last!.content else {
            return XCTFail("the bands are listed in the deck's order: \(bands)")
        }
        XCTAssertEqual(top.template, "bar")
        XCTAssertEqual(top.fields, ["title": "Today"])
        // Scrolled by 150: card 0 (content 0..<100, screen -54..<46) is wholly under the top band.
        _ = scene.scroll(to: .offset(150), duration: 0, curve: .linear, tag: 1)
        list = frame(&scene, at: 1)
        let ids = list.items.compactMap { item -> String? in
            guard case .card(let card, _, _, _) = item.content else { return nil }
            return card.id
        }
        XCTAssertEqual(ids.first, "c1")
        XCTAssertEqual(list.items.suffix(2).map(\.frame.y), [0, 552])
    }

    func testApplyWithOtherBandsChangesTheScrollSpace() throws {
        var scene = Scene(deck: try Self.deck(), viewport: Self.screen)
        _ = frame(&scene, at: 0)
        let applied = scene.apply(try Self.deck(overlays: Self.bands), tag: 1)
        XCTAssertTrue(applied.overlaysChanged)
        XCTAssertEqual(applied.settingsChanged, 1)
        XCTAssertEqual(scene.viewport.height, 456)
        XCTAssertEqual(scene.layout.maxOffset, 2_000 - 456)
        _ = scene.replaceDeck(try Self.deck())
        XCTAssertEqual(scene.viewport.height, 600, "a deck without bands scrolls in the whole screen")
    }

    func testBadOverlaysAreReportedAtTheirFields() {
        func problems(_ overlays: String) -> [String] {
            do {
                _ = try Self.deck(overlays: overlays)
                return []
            } catch let error as DeckError {
                return error.problems.map { "\($0.path): \($0.message)" }
            } catch {
                return ["\(error)"]
            }
        }
        XCTAssertEqual(
            problems(#"[{"edge": "left", "height": 96, "template": "bar"}]"#),
            [#"overlays[0].edge: "left" is not one of "top", "bottom""#])
        XCTAssertEqual(
            problems(#"[{"edge": "top", "template": "nope"}]"#),
            [
                "overlays[0].height: missing (the band's height in pixels)",
                #"overlays[0].template: no template is named "nope" (templates: "bar", "note")"#,
            ])
        XCTAssertEqual(
            problems(##"[{"edge": "top", "height": 0, "template": "bar", "color": "#fff"}]"##),
            [
                "overlays[0].color: unknown field (known fields: edge, fields, height, template)",
                "overlays[0].height: 0 is out of range (1...100000)",
            ])
        XCTAssertEqual(problems(#"{"edge": "top"}"#).first?.hasPrefix("overlays: expected an array"), true)
    }

    func testBandsThatCoverTheScreenLeaveAOnePixelSpace() throws {
        let scene = Scene(
            deck: try Self.deck(overlays: #"[{"edge": "top", "height": 700, "template": "bar"}]"#),
            viewport: Self.screen)
        XCTAssertEqual(scene.viewport.height, 1)
        XCTAssertEqual(scene.scrollSpaceTop, 599)
    }
}
