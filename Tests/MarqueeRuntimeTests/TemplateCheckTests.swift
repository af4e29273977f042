import MarqueeCore
import MarqueeRuntime
import XCTest

/// `check-deck`'s warnings about templates and fields.
final class TemplateCheckTests: XCTestCase {
    /// A field no element of the card's template shows (a misspelt name) is a warning naming the
    /// card, the field and the template's fields; the deck still runs. A card without a template
    /// giving fields, and a band's field, too.
    func testAFieldTheTemplateDoesNotShowIsAWarning() throws {
        let deck = try DeckDecoder.decode(
            """
            {"templates": {"departure": {"elements": [
               {"text": "time", "left": 0, "top": 0},
               {"text": "status", "right": 0, "top": 0, "width": 90, "color": {"field": "accent", "map": {"x": "#ff0000"}}}]}},
             "overlays": [{"edge": "top", "height": 40, "template": "departure", "fields": {"time": "12:00", "status": "ok", "tme": "x"}}],
             "sections": [{"cards": [
               {"id": "d1", "template": "departure", "fields": {"time": "10:02", "staus": "Delayed", "accent": "x", "status": "ok"}},
               {"id": "d2", "template": "departure", "fields": {"time": "10:02", "status": "ok"}},
               {"id": "plain", "title": "t", "fields": {"gate": "4"}}
             ]}]}
            """)
        XCTAssertEqual(
            TemplateCheck.warnings(in: deck).map(\.description),
            [
                #"sections[0].cards[0].fields.staus: card "d1" gives field "staus" to template "departure", which does not show it (its fields: "time", "status", "accent")"#,
                #"sections[0].cards[2].fields.gate: card "plain" gives field "gate" to the default template, which shows no fields (title and body only; name a template)"#,
                #"overlays[0].fields.tme: overlay band 0 gives field "tme" to template "departure", which does not show it (its fields: "time", "status", "accent")"#,
            ])
    }

    /// Commands name a card as the one word `id:ID`: an id with a space, a tab or a line break is
    /// a warning (the deck still runs, and `apply` can still change the card), quoted with escapes so
    /// the line stays one line; other characters, control characters included, are not (commands
    /// split words at spaces and tabs only); past ten, the rest are counted.
    func testIDsCommandsCannotNameAreWarnings() throws {
        let problem = "has a space, a tab or a line break: commands cannot name the card (id:ID is one word)"
        let named = try DeckDecoder.decode(
            #"{"sections": [{"cards": [{"id": "gate 4"}, {"id": "ok:#1"}]}, {"cards": [{"id": "tab\there", "title": "t", "fields": {"x": "1"}}, {"id": "line\nbreak"}, {"id": "Zürich\u00a0Hbf"}, {"id": "bell\u0007"}, {"id": "del\u007f"}]}]}"#
        )
        XCTAssertEqual(
            TemplateCheck.warnings(in: named).map(\.description).filter { $0.contains("id:ID") },
            [
                #"sections[0].cards[0].id: "gate 4" \#(problem)"#,
                #"sections[1].cards[0].id: "tab\there" \#(problem)"#,
                #"sections[1].cards[1].id: "line\nbreak" \#(problem)"#,
            ])
        let many = try DeckDecoder.decode(
            #"{"sections": [{"cards": ["# + (0..<12).map { #"{"id": "gate \#($0)"}"# }.joined(separator: ", ") + "]}]}")
        let warnings = TemplateCheck.warnings(in: many).map(\.description)
        XCTAssertEqual(warnings.filter { $0.contains("id:ID") }.count, 10)
        XCTAssertTrue(warnings.contains("and 2 more card ids commands cannot name"), "\(warnings)")
    }

    func testUnusedTemplatesMissingFieldsAndUnreadableText() throws {
        let deck = try DeckDecoder.decode(
            """
            {"style": {"background": "#000000", "cardColor": "#ffffff", "cardAlpha": 1, "textColor": "#1a1a1f"},
             "templates": {
               "row": {"elements": [
                 {"text": "name", "left": 0, "top": 0},
                 {"text": "note", "left": 0, "top": 30, "color": "#eeeeee"},
                 {"text": "status", "right": 0, "top": 0, "width": 90,
                  "color": {"field": "status", "map": {"ok": "#1e7a42", "faint": "#f0f0f0"}}},
                 {"image": "photo", "left": 0, "top": 50, "width": 40, "height": 40}
               ]},
               "spare": {"elements": [{"text": "x"}]}
             },
             "sections": [{"cards": [
               {"id": "a", "template": "row", "fields": {"name": "A", "status": "ok", "photo": "/nonexistent/a.png"}},
               {"id": "b", "template": "row", "fields": {"name": "B", "status": "faint"}},
               {"id": "c", "title": "Dark", "color": "#20242c"}
             ]}]}
            """)
        let warnings = TemplateCheck.warnings(in: deck, deckPath: "/tmp/deck.json").map(\.description)
        XCTAssertEqual(
            warnings,
            [
                #"templates.row: no card gives field "note", which the template shows"#,
                "templates.spare: no card or overlay uses this template (an alert may)",
                #"sections[0].cards[1]: text "status" #f0f0f0 on the card's fill #ffffff has a contrast of 1.1:1 (at least 3:1 reads)"#,
                "sections[0].cards[2]: text colour #1a1a1f on the card's fill #20242c has a contrast of 1.1:1 (at least 3:1 reads)",
            ])
        // An image that cannot be shown is a problem (check-deck fails), named at its field.
        XCTAssertEqual(TemplateCheck.imageUses(in: deck).map(\.jsonPath), ["sections[0].cards[0].fields.photo"])
        let problems = ImagePaths.problems(TemplateCheck.imageUses(in: deck), deckPath: "/tmp/deck.json")
        XCTAssertEqual(
            problems.map(\.description),
            ["sections[0].cards[0].fields.photo: image /nonexistent/a.png: No such file or directory"])
    }

    /// Cards of only an id, a title and a body are checked as stored (no `Card` made): their text
    /// is the style's colour on the style's fill, and a card with no text shows none.
    func testPlainCardsOnALowContrastStyleAreNamed() throws {
        let deck = try DeckDecoder.decode(
            """
            {"style": {"background": "#000000", "cardColor": "#707070", "cardAlpha": 1, "textColor": "#777777"},
             "sections": [{"cards": [
               {"id": "p", "title": "Plain"},
               {"id": "q"},
               {"id": "r", "body": "on its own fill", "color": "#000000"},
               {"id": "s", "body": "only a body"}
             ]}]}
            """)
        XCTAssertEqual(
            TemplateCheck.warnings(in: deck).map(\.description),
            [
                "sections[0].cards[0]: text colour #777777 on the card's fill #707070 has a contrast of 1.1:1 (at least 3:1 reads)",
                "sections[0].cards[3]: text colour #777777 on the card's fill #707070 has a contrast of 1.1:1 (at least 3:1 reads)",
            ])
    }

    func testContrastIsWCAGsRatio() {
        XCTAssertEqual(TemplateCheck.contrast(.black, .white), 21, accuracy: 0.01)
        XCTAssertEqual(TemplateCheck.contrast(.white, .white), 1)
        // #767676 on white is WCAG's well-known 4.5:1 grey.
        XCTAssertEqual(TemplateCheck.contrast(Color(hex: "#767676")!, .white), 4.54, accuracy: 0.01)
    }
}
