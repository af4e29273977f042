import MarqueeCore
import XCTest

/// Deck templates and the cards that use them, as the decoder reads and refuses them.
final class TemplateDecoderTests: XCTestCase {
    private func deck(templates: String, cards: String) throws -> Deck {
        try DeckDecoder.decode(#"{"templates": \#(templates), "sections": [{"cards": \#(cards)}]}"#)
    }

    private func problems(templates: String, cards: String = "[]") -> [String] {
        do {
            _ = try deck(templates: templates, cards: cards)
            return []
        } catch let error as DeckError {
            return error.problems.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    func testTheSpecsDepartureTemplateDecodes() throws {
        let deck = try deck(
            templates: """
                {"departure": {"height": 132, "elements": [
                  {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 10},
                  {"text": "time", "left": 28, "top": 16, "width": 150, "size": 44, "weight": "bold"},
                  {"text": "platform", "right": 24, "top": 16, "width": "20%", "size": 40, "align": "end"},
                  {"text": "calling", "left": 190, "top": 80, "right": 260, "size": 24, "overflow": "marquee", "speed": 90},
                  {"text": "status", "right": 24, "top": 80, "width": 220, "size": 24, "align": "end",
                   "color": {"field": "status", "map": {"On time": "#2ea05a"}, "default": "#d64545"}},
                  {"image": "logo", "right": 260, "top": 20, "width": 64, "height": 64, "fit": "cover", "radius": 8},
                  {"clock": "%H:%M", "right": 0, "bottom": 0, "width": 80}
                ]}}
                """,
            cards:
                #"[{"id": "d1", "template": "departure", "fields": {"time": "06:20", "status": "On time", "platform": 4}}]"#
        )
        let template = try XCTUnwrap(deck.templates["departure"])
        XCTAssertEqual(template.height, 132)
        XCTAssertEqual(template.elements.count, 7)
        XCTAssertEqual(template.elements[1].text.weight, 700)
        XCTAssertEqual(template.elements[2].horizontal.extent, .percent(20))
        XCTAssertEqual(template.elements[3].text.overflow, .marquee(speed: 90, pause: TextOverflow.defaultMarqueePause))
        XCTAssertEqual(
            template.elements[4].text.color?.resolve(["status": "On time"]), Color(red: 0x2e, green: 0xa0, blue: 0x5a))
        XCTAssertEqual(template.elements[4].text.color?.resolve(["status": "Late"]), Color(hex: "#d64545"))
        let card = deck.sections[0].cards[0]
        XCTAssertEqual(card.fields["platform"], "4", "a number field is taken as written")
        XCTAssertEqual(deck.listHeight(of: card), 132, "the template's height is the card's in a list")
        // Placement: right 24 and width 20% of a 1000 px card.
        XCTAssertEqual(template.elements[2].frame(width: 1000, height: 132).x, 776)
    }

    func testElementMistakesAreReportedWithTheirPaths() {
        let found = problems(
            templates: """
                {"t": {"elements": [
                  {"text": "a", "left": 1, "right": 2, "width": 3},
                  {"text": "b", "colour": "#fff"},
                  {"image": "c", "size": 12},
                  {"box": "#12", "top": "half"},
                  {"text": "d", "overflow": "scroll"},
                  {"text": "e", "lines": 2, "overflow": "marquee"},
                  {"left": 4},
                  {"text": "f", "box": "g"},
                  {"text": "h", "weight": 450, "speed": 3}
                ]},
                 "default": {"elements": []}}
                """)
        XCTAssertEqual(
            found,
            [
                #"templates.t.elements[0].width: give at most two of "left", "right" and "width" (the third follows from them)"#,
                "templates.t.elements[1].colour: unknown field (known fields: align, bottom, color, direction, font, height, left, lines, overflow, pause, right, size, speed, text, top, weight, width)",
                "templates.t.elements[2].size: unknown field (known fields: bottom, fit, height, image, left, placeholder, radius, right, top, width)",
                ##"templates.t.elements[3].box: "#12" is not a color (use #rgb, #rrggbb or #rrggbbaa)"##,
                #"templates.t.elements[4].overflow: "scroll" is not one of "ellipsis", "clip", "marquee""#,
                "templates.t.elements[5].lines: a marquee is one line",
                #"templates.t.elements[6]: an element needs one of "text", "image", "box" or "clock""#,
                #"templates.t.elements[7]: an element is one of "text", "image", "box" or "clock", not several"#,
                #"templates.t.elements[8].weight: a weight is "regular", "bold" or 100, 200, ... 900"#,
                #"templates.t.elements[8].speed: only a marquee ("overflow": "marquee") has a speed"#,
                #"templates.default: "default" is the built-in template's name; give yours another"#,
            ])
    }

    func testACardNamingAMissingTemplateIsAnError() {
        XCTAssertEqual(
            problems(
                templates: #"{"row": {"elements": []}}"#,
                cards:
                    #"[{"id": "a", "template": "rows"}, {"id": "b", "template": "default"}, {"id": "c", "fields": []}]"#
            ),
            [
                #"sections[0].cards[0].template: no template is named "rows" (templates: "row", "default")"#,
                "sections[0].cards[2].fields: expected an object (field names to values), found an array",
            ])
    }

    func testUpdateGivesOnlyTheKeysItNames() throws {
        let patch = try DeckDecoder.decodeCardPatch(
            try JSONParser.parse(#"{"body": "New", "fields": {"status": "Delayed"}}"#), path: "card")
        XCTAssertEqual(patch, CardPatch(body: "New", fields: ["status": "Delayed"]))
        let card = Card(
            id: "d4", title: "Title", body: "Old", accent: Color(hex: "#2ea05a"), template: nil,
            fields: ["status": "On time", "time": "06:20"])
        let updated = patch.applied(to: card)
        XCTAssertEqual(updated.title, "Title", "a key not given keeps its value")
        XCTAssertEqual(updated.accent, Color(hex: "#2ea05a"))
        XCTAssertEqual(updated.body, "New")
        XCTAssertEqual(updated.fields, ["status": "Delayed", "time": "06:20"])
    }
    /// A number in `fields` is shown as its JSON text, digit for digit: trailing zeros, digits
    /// past a double's precision, exponents and tiny values all kept (they were reformatted from
    /// the double: 4.50 became 4.5, 0.0000001 became 1e-07).
    func testNumberFieldsKeepTheirTextAsWritten() throws {
        let written = ["4.50", "12345678901234567890", "0.0000001", "-0", "1E+5", "2.10", "7", "-3.25e-2"]
        let cards = written.enumerated().map {
            #"{"id": "c\#($0.offset)", "template": "m", "fields": {"price": \#($0.element)}}"#
        }
        let deck = try deck(
            templates:
                ##"{"m": {"height": 100, "elements": [{"text": "price", "left": 0, "top": 0, "width": 400, "size": 40, "color": {"field": "price", "map": {"4.50": "#ff0000"}}}]}}"##,
            cards: "[" + cards.joined(separator: ",") + "]")
        XCTAssertEqual(deck.sections[0].cards.map { $0.fields["price"] }, written)
        let color = deck.templates["m"]!.elements[0].text.color
        XCTAssertEqual(
            color?.resolve(deck.sections[0].cards[0].fields), Color(hex: "#ff0000"), "the map's key \"4.50\" matches")
        // The same through the protocol's decoders: `update`, `insert` and `insert-section` (which
        // writes the section out and reads it back as a document).
        let patch = try DeckDecoder.decodeCardPatch(try JSONParser.parse(#"{"fields": {"price": 2.10}}"#), path: "card")
        XCTAssertEqual(patch.fields, ["price": "2.10"])
        let card = try DeckDecoder.decodeCard(
            try JSONParser.parse(#"{"id": "n", "fields": {"price": 0.0000001}}"#), path: "card", requireID: true)
        XCTAssertEqual(card.fields["price"], "0.0000001")
        let section = try DeckDecoder.decodeSection(
            try JSONParser.parse(#"{"cards": [{"id": "s", "fields": {"price": 12345678901234567890, "p2": 4.50}}]}"#),
            path: "section")
        XCTAssertEqual(section.cards[0].fields, ["price": "12345678901234567890", "p2": "4.50"])
    }

    /// 4.50 and 4.5 are shown differently, so `apply` counts a card changing from one to the other
    /// as updated; the same text twice is no change.
    func testANumberFieldWrittenDifferentlyIsAnUpdate() throws {
        func state(_ price: String) throws -> Deck {
            try deck(
                templates: #"{"m": {"elements": [{"text": "price", "left": 0, "top": 0, "width": 400}]}}"#,
                cards: #"[{"id": "tea", "template": "m", "fields": {"price": \#(price)}}]"#)
        }
        XCTAssertEqual(DeckDiff(from: try state("4.50"), to: try state("4.5")).updated, 1)
        XCTAssertEqual(DeckDiff(from: try state("4.50"), to: try state("4.50")).updated, 0)
    }
}
