import MarqueeCore

extension BenchRunner {
    /// The café menu card of `menu-1080p-images`: a photo (a 600x400 JPEG shown at half its size,
    /// cut to the box, rounded corners), the dish's name, a note and a right-aligned price.
    public static let menuTemplate = """
        {"elements": [
          {"image": "photo", "left": 16, "top": 16, "width": 300, "height": 200, "fit": "cover", "radius": 12,
           "placeholder": "#2a3340"},
          {"text": "name", "left": 336, "top": 24, "right": 20, "size": 30, "weight": "bold", "lines": 2},
          {"text": "note", "left": 336, "top": 108, "right": 20, "size": 20, "lines": 2},
          {"text": "price", "left": 336, "bottom": 20, "right": 20, "size": 34, "weight": "bold", "align": "end",
           "color": "#b5452b"}
        ]}
        """

    /// Distinct photos the menu's cards share (card n shows photo n mod 200).
    public static let menuPhotos = 200

    /// `menu-1080p-images`: a 3-column grid of `cards` menu cards (597 x 232 px at 1920 wide), every
    /// one a different dish and price.
    public static func menuDeck(cards: Int) -> Deck {
        var deck = deck(cards: 0)
        deck.layout.kind = .grid
        deck.layout.columns = 3
        deck.layout.cardHeight = 232
        // The template is read as a deck file reads it.
        let json = #"{"templates": {"dish": \#(menuTemplate)}, "sections": []}"#
        deck.templates = (try? DeckDecoder.decode(json))?.templates ?? [:]
        let dishes = [
            "Flat white", "Cardamom bun", "Shakshuka", "Sourdough toast", "Miso soup", "Pear tart", "Falafel wrap",
            "Lemon cake", "Mushroom risotto", "Iced matcha", "Croque monsieur",
        ]
        let notes = [
            "With oat milk on request", "Baked this morning", "Two eggs, peppers, feta and bread",
            "Whipped butter and marmalade", "Tofu, wakame and spring onion",
        ]
        var section = Section()
        section.cards.reserveCapacity(cards)
        for number in 0..<cards {
            let cents = 350 + number * 37 % 1200
            section.cards.append(
                Card(
                    id: "m\(number)", template: "dish",
                    fields: [
                        "photo": "photos/\(number % menuPhotos).jpg",
                        "name": "\(dishes[number % dishes.count]) \(number)",
                        "note": notes[number % notes.count],
                        "price": "€\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)",
                    ]))
        }
        deck.sections = [section]
        return deck
    }
}
