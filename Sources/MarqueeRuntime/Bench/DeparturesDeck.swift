import MarqueeCore

extension BenchRunner {
    /// The departure template of docs/deck-format.md (columns, a status coloured by its value, a
    /// logo, and a "calling at" line too long for its column, which scrolls as a marquee).
    public static let departureTemplate = """
        {"height": 132, "elements": [
          {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 10},
          {"text": "time", "left": 28, "top": 16, "width": 150, "size": 44, "weight": "bold"},
          {"text": "destination", "left": 190, "top": 16, "right": 260, "size": 40},
          {"text": "platform", "right": 24, "top": 16, "width": 220, "size": 40, "align": "end"},
          {"text": "calling", "left": 190, "top": 80, "right": 260, "size": 24, "overflow": "marquee"},
          {"text": "status", "right": 24, "top": 80, "width": 220, "size": 24, "align": "end",
           "color": {"field": "status", "map": {"On time": "#2ea05a", "Delayed": "#e8a33d"}, "default": "#d64545"}},
          {"image": "logo", "right": 260, "top": 20, "width": 64, "height": 64, "fit": "contain"}
        ]}
        """

    /// The operators whose logos the departures show (PNG files made by `BenchPictures`).
    static let departureLogos = ["northern", "coastal", "valley", "express"]

    /// `departures-1080p`: cards-1080p's layout and scroll over `cards` departures, every one a
    /// different time and destination, every calling-at line a marquee.
    public static func departuresDeck(cards: Int) -> Deck {
        var deck = deck(cards: 0)
        // The template is the documented one, read as a deck file reads it.
        let json = #"{"templates": {"departure": \#(departureTemplate)}, "sections": []}"#
        deck.templates = (try? DeckDecoder.decode(json))?.templates ?? [:]
        let places = [
            "Carrow Bay", "Dunmore", "Harrowgate Central", "Kestrel Point", "Longmead", "Marrowby", "Brightwater",
        ]
        let statuses = ["On time", "On time", "Delayed", "On time", "Cancelled"]
        let accents = ["#2ea05a", "#2ea05a", "#e8a33d", "#2ea05a", "#d64545"]
        var section = Section()
        section.cards.reserveCapacity(cards)
        for number in 0..<cards {
            let minutes = 6 * 60 + number * 3
            let time =
                "\(minutes / 60 % 24 < 10 ? "0" : "")\(minutes / 60 % 24):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
            let place = places[number % places.count]
            section.cards.append(
                Card(
                    id: "d\(number)", template: "departure",
                    fields: [
                        "time": time, "destination": place, "platform": "Platform \(number % 12 + 1)",
                        "calling": "Calling at Alderley, Brightwater, Carrow, Dunmore, Eastfield and \(place)",
                        "status": statuses[number % statuses.count], "accent": accents[number % accents.count],
                        "logo": "logos/\(departureLogos[number % departureLogos.count]).png",
                    ]))
        }
        deck.sections = [section]
        return deck
    }
}
