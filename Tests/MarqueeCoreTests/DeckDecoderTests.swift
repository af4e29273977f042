import MarqueeCore
import XCTest

final class DeckDecoderTests: XCTestCase {
    func testDecodesAFullDeck() throws {
        let deck = try DeckDecoder.decode(
            """
            {"layout": {"type": "grid", "columns": 3, "insets": {"top": 10, "left": 20}, "spacing": 8, "cardHeight": 120},
             "style": {"background": "#102030", "cardAlpha": 0.5, "titleFont": "DejaVu Sans:bold", "titleSize": 30},
             "sections": [{"title": "One", "cards": [{"id": "a", "title": "A", "body": "x\\ny", "color": "#fff", "accent": "#ff000080"}]},
                          {"cards": []}]}
            """)
        XCTAssertEqual(deck.layout.kind, .grid)
        XCTAssertEqual(deck.layout.columns, 3)
        XCTAssertEqual(deck.layout.insets, EdgeInsets(top: 10, left: 20, bottom: 40, right: 40))
        XCTAssertEqual(deck.style.background, Color(red: 0x10, green: 0x20, blue: 0x30))
        XCTAssertEqual(deck.sections[0].cards[0].accent, Color(red: 255, green: 0, blue: 0, alpha: 0x80))
        XCTAssertEqual(deck.sections[0].cards[0].body, "x\ny")
        XCTAssertNil(deck.sections[1].title)
    }

    func testReportsEveryProblemWithItsPath() {
        let text = """
            {"sections": [
              {"cards": [{"id": "c1"}, {"id": "c2"}]},
              {"title": 5, "cards": [{"id": "c3", "height": -1}, {"title": "no id"}]},
              {"cards": [{"id": "c1", "color": "red", "colour": "#fff"}]}
            ], "layout": {"type": "spiral"}, "style": {"cardAlpha": 2}}
            """
        XCTAssertThrowsError(try DeckDecoder.decode(text)) { error in
            let lines = (error as! DeckError).problems.map(\.description)
            XCTAssertTrue(lines.contains("sections[1].title: expected a string, found a number"), "\(lines)")
            XCTAssertTrue(lines.contains("sections[1].cards[0].height: -1 is out of range (1...100000)"), "\(lines)")
            XCTAssertTrue(lines.contains("sections[1].cards[1].id: missing (every card needs a unique id)"), "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("sections[2].cards[0].id: duplicate id \"c1\"") }, "\(lines)")
            XCTAssertTrue(
                lines.contains { $0.hasPrefix("sections[2].cards[0].color: \"red\" is not a color") }, "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("sections[2].cards[0].colour: unknown field") }, "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("layout.type: unknown layout \"spiral\"") }, "\(lines)")
            XCTAssertTrue(lines.contains("style.cardAlpha: 2 is out of range (0...1)"), "\(lines)")
            XCTAssertEqual(lines.count, 8, "\(lines)")
        }
    }

    func testTextDirectionAndAlignment() throws {
        let deck = try DeckDecoder.decode(
            #"""
            {"style": {"direction": "rtl", "align": "end"},
             "sections": [{"cards": [{"id": "a", "title": "שלום", "direction": "auto"}, {"id": "b"}]}]}
            """#)
        XCTAssertEqual(deck.style.direction, .rtl)
        XCTAssertEqual(deck.style.align, .end)
        XCTAssertEqual(deck.sections[0].cards[0].direction, .auto)
        XCTAssertNil(deck.sections[0].cards[1].direction, "a card without its own takes the style's")
        XCTAssertEqual(try DeckDecoder.decode(#"{"sections": []}"#).style.direction, .auto)
        XCTAssertEqual(try DeckDecoder.decode(#"{"sections": []}"#).style.align, .start)
        let bad =
            #"{"style": {"direction": "up", "align": 3}, "sections": [{"cards": [{"id": "a", "direction": "RTL"}]}]}"#
        XCTAssertThrowsError(try DeckDecoder.decode(bad)) { error in
            let lines = Set((error as! DeckError).problems.map(\.description))
            XCTAssertEqual(
                lines,
                [
                    #"sections[0].cards[0].direction: "RTL" is not one of "auto", "ltr", "rtl""#,
                    #"style.direction: "up" is not one of "auto", "ltr", "rtl""#,
                    "style.align: expected a string, found a number",
                ])
        }
    }

    /// An id of more than one word is kept as written (commands cannot name the card, but a
    /// feed of whole states through `apply` never has to; `check-deck` warns), whatever it holds.
    func testACardIDOfMoreThanOneWordIsKept() throws {
        let deck = try DeckDecoder.decode(
            #"{"sections": [{"cards": [{"id": "gate 4"}, {"id": "tab\there"}, {"id": "a:b#c"}, {"id": "Zürich\u00a0Hbf"}]}]}"#
        )
        XCTAssertEqual(deck.sections[0].cards.map(\.id), ["gate 4", "tab\there", "a:b#c", "Zürich\u{a0}Hbf"])
        let card = try DeckDecoder.decodeCard(try JSONParser.parse(#"{"id": "gate 4"}"#), path: "card", requireID: true)
        XCTAssertEqual(card.id, "gate 4")
    }

    /// Input quoted in a problem keeps the problem one line and sends no escape sequence to the
    /// terminal: control characters are written as JSON escapes.
    func testQuotedInputHasItsControlCharactersEscaped() throws {
        XCTAssertThrowsError(
            try DeckDecoder.decode(
                #"{"sections": [{"cards": [{"id": "nl\nx\u001b[2J\u007f"}, {"id": "nl\nx\u001b[2J\u007f"}]}]}"#)
        ) { error in
            XCTAssertEqual(
                (error as? DeckError)?.problems.map(\.description),
                [#"sections[0].cards[1].id: duplicate id "nl\nx\u001b[2J\u007f" (first used at sections[0].cards[0])"#])
        }
        XCTAssertEqual(MessageText.quoted("a\tb\r\u{85}é"), #""a\tb\r\u0085é""#)
    }

    func testInvalidJSONIsOneProblemWithAPosition() {
        XCTAssertThrowsError(try DeckDecoder.decode("{\"sections\": [}")) { error in
            XCTAssertTrue("\(error)".contains("line 1, column 15"), "\(error)")
        }
    }

    func testDemoDeckIsARealisticBoard() {
        let deck = DemoDeck.make()
        XCTAssertGreaterThanOrEqual(deck.sections.count, 3)
        XCTAssertGreaterThanOrEqual(deck.cardCount, 40)
        let ids = deck.sections.flatMap { $0.cards.map(\.id) }
        XCTAssertEqual(Set(ids).count, ids.count, "ids are unique")
    }
}

final class HostileDeckTests: XCTestCase {
    func testAByteOrderMarkStartsADeck() throws {
        let deck = try DeckDecoder.decode(
            bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"sections": [{"cards": [{"id": "a"}]}]}"#.utf8))
        XCTAssertEqual(deck.cardCount, 1)
        // Only at the very start: anywhere else it is a stray character, and its columns count
        // from after the mark.
        XCTAssertThrowsError(try DeckDecoder.decode(bytes: Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        XCTAssertThrowsError(try DeckDecoder.decode(bytes: [0xEF, 0xBB, 0xBF] + Array("{\"sections\": [}".utf8))) {
            XCTAssertTrue("\($0)".contains("line 1, column 15"), "\($0)")
        }
        XCTAssertThrowsError(
            try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)), "plain JSON keeps RFC 8259's default")
    }

    func testManyProblemsAreCountedNotAllKept() {
        let count = 5_000
        let cards = (0..<count).map { _ in #"{"id": "same"}"# }.joined(separator: ",")
        XCTAssertThrowsError(try DeckDecoder.decode(#"{"sections": [{"cards": [\#(cards)]}]}"#)) { error in
            let error = error as! DeckError
            XCTAssertEqual(error.count, count - 1)
            XCTAssertEqual(error.problems.count, DeckDecoder.maximumKeptProblems)
            XCTAssertEqual(
                error.summary,
                "sections[0].cards[1].id: duplicate id \"same\" (first used at sections[0].cards[0]) (and 4998 more problems)"
            )
            XCTAssertEqual(error.listing(limit: 2).split(separator: "\n").last, "… and 4997 more problems")
        }
    }

    func testInputQuotedInProblemsIsCut() {
        let long = String(repeating: "é", count: 10_000)
        XCTAssertThrowsError(
            try DeckDecoder.decode(#"{"sections": [], "style": {"background": "\#(long)"}, "\#(long)": 1}"#)
        ) { error in
            for problem in (error as! DeckError).problems {
                XCTAssertLessThan(problem.description.count, 200, problem.description)
                XCTAssertTrue(problem.description.contains("é…"), problem.description)
            }
        }
    }

    /// A card's id, title and body are copied into its stored bytes as read (no `String` made for
    /// them): escapes, other scripts and the other fields come out as a `Card` gives them, and an
    /// escaped id is the same id as the plain one.
    func testCardTextsDecodeAsTheCardsTheySpell() throws {
        let deck = try DeckDecoder.decode(
            #"""
            {"sections":[{"cards":[
              {"id":"a\u00e9","title":"Line\none \"q\" \\","body":"中文 עברית \ud83d\ude00"},
              {"body":"b first","id":"b","color":"#112233","title":"T","fields":{"k":"v"},"height":90}
            ]}]}
            """#)
        XCTAssertEqual(
            Array(deck.sections[0].cards),
            [
                Card(id: "aé", title: "Line\none \"q\" \\", body: "中文 עברית 😀"),
                Card(
                    id: "b", title: "T", body: "b first", color: Color(red: 0x11, green: 0x22, blue: 0x33),
                    height: 90, fields: ["k": "v"]),
            ])
        XCTAssertEqual(deck.sections[0].cards.position(ofID: "aé"), 0)

        let duplicates = #"""
            {"sections":[{"cards":[{"id":"a"},{"id":"\u0061","title":5}]},{"cards":[{"id":"\u0062"},{"id":"a"}]}]}
            """#
        XCTAssertThrowsError(try DeckDecoder.decode(duplicates)) { error in
            XCTAssertEqual(
                (error as! DeckError).problems.map(\.description),
                [
                    "sections[0].cards[1].title: expected a string, found a number",
                    #"sections[0].cards[1].id: duplicate id "a" (first used at sections[0].cards[0])"#,
                    #"sections[1].cards[1].id: duplicate id "a" (first used at sections[0].cards[0])"#,
                ])
        }
        // A card's member names are matched as bytes: a name given twice (here escaped the second
        // time) is still refused where the second one starts, and named as text.
        let twice = #"""
            {"sections":[{"cards":[{"id":"x",
             "tïtle":"a", "t\u00efVtle":"b",  "t\u00eftle":"b"}]}]}
            """#
        XCTAssertThrowsError(try DeckDecoder.decode(twice)) { error in
            XCTAssertEqual(
                (error as! DeckError).problems.map(\.description),
                [#"not valid JSON: line 2, column 35: duplicate member "tïtle""#])
        }
        // Bytes that are not UTF-8 in a card's text: the file is not JSON (the position is the
        // closing quote's, counting the lone lead byte as a character).
        let invalid =
            Array(#"{"sections":[{"cards":[{"id":"x","title":"#.utf8) + [0x22, 0x41, 0xC3, 0x22] + Array("}]}]}".utf8)
        XCTAssertThrowsError(try DeckDecoder.decode(bytes: invalid)) { error in
            XCTAssertEqual(
                (error as! DeckError).problems.map(\.description),
                ["not valid JSON: line 1, column 45: invalid UTF-8 in a string"])
        }
    }
}
