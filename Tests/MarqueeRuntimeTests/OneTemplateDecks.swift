import MarqueeCore

/// Decks of three cards of one template with one element (its JSON given), each card showing
/// `text` in field `m`: for the tests that place an element at an edge of its card and check it
/// is drawn whole in bands (`SpanForegroundTests`, `OverhangTests`).
enum OneTemplateDecks {
    static func deck(element: String, text: String, spacing: Int) throws -> Deck {
        let card = { (id: String) in #"{ "id": "\#(id)", "template": "t", "fields": { "m": "\#(text)" } }"# }
        return try DeckDecoder.decode(
            """
            { "layout": { "type": "list", "insets": { "top": 20, "left": 20, "bottom": 20, "right": 20 },
                          "spacing": \(spacing), "cardHeight": 120 },
              "style": { "background": "#121a2b", "cardColor": "#f2f4f8", "cornerRadius": 12,
                         "textColor": "#1a1a1f" },
              "templates": { "t": { "height": 120, "elements": [ \(element) ] } },
              "sections": [ { "cards": [ \(card("a")), \(card("b")), \(card("c")) ] } ] }
            """)
    }
}
