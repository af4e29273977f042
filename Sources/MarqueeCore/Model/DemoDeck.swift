/// The deck shown without `--deck`: a station's departure board with arrivals and notices,
/// made to look right at the software backend's default 1280x720.
public enum DemoDeck {
    public static func make() -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(top: 28, left: 40, bottom: 28, right: 40)
        deck.layout.spacing = 14
        deck.layout.cardHeight = 124
        deck.layout.headerHeight = 52
        deck.style.background = Color(red: 0x12, green: 0x1a, blue: 0x2b)
        deck.style.cardAlpha = 0.94
        deck.style.cornerRadius = 14
        deck.style.titleSize = 30
        deck.style.bodySize = 19
        deck.style.headerSize = 28
        deck.style.padding = 18
        deck.style.accentWidth = 8
        deck.style.headerColor = Color(red: 0xf5, green: 0xc5, blue: 0x42)
        deck.sections = [departures(), arrivals(), notices()]
        return deck
    }

    private static let onTime = Color(red: 0x2e, green: 0xa0, blue: 0x5a)
    private static let delayed = Color(red: 0xe8, green: 0x9a, blue: 0x1c)
    private static let cancelled = Color(red: 0xd6, green: 0x3a, blue: 0x3a)

    private static let destinations = [
        "Brightwater", "Dunmore", "Alderley Junction", "Carrow Bay", "Eastfield", "Fenwick Parkway",
        "Glenholt", "Harrowgate Central", "Ivybridge", "Kestrel Point", "Longmead", "Marrowby",
    ]
    private static let stops = [
        "Alderley", "Brightwater", "Carrow", "Dunmore", "Eastfield", "Fenwick", "Glenholt", "Harrowgate",
        "Ivybridge", "Kestrel", "Longmead", "Marrowby", "Northam", "Oakhollow",
    ]

    private static func time(_ minutes: Int) -> String {
        let hour = 6 + minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    private static func callingAt(_ seed: Int) -> String {
        let count = 3 + seed % 4
        let names = (0..<count).map { stops[(seed * 5 + $0 * 3) % stops.count] }
        return "Calling at " + names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    private static func departures() -> Section {
        var cards: [Card] = []
        for number in 0..<24 {
            let minutes = 12 + number * 7
            let platform = 1 + (number * 3) % 6
            var status = "On time"
            var accent = onTime
            if number % 7 == 3 {
                status = "Expected \(time(minutes + 4 + number % 5))"
                accent = delayed
            } else if number == 10 {
                status = "Cancelled: train crew unavailable"
                accent = cancelled
            }
            cards.append(
                Card(
                    id: "dep-\(number + 1)", title: "\(time(minutes))  \(destinations[number % destinations.count])",
                    body: "Platform \(platform) · \(status)\n\(callingAt(number))", accent: accent))
        }
        return Section(title: "Departures", cards: cards)
    }

    private static func arrivals() -> Section {
        var cards: [Card] = []
        for number in 0..<14 {
            let minutes = 20 + number * 11
            let late = number % 5 == 2
            cards.append(
                Card(
                    id: "arr-\(number + 1)",
                    title: "\(time(minutes))  from \(destinations[(number * 7 + 3) % destinations.count])",
                    body: "Platform \(1 + (number * 5) % 6) · " + (late ? "Delayed about 6 minutes" : "On time")
                        + "\nOperated by Northern Lines",
                    accent: late ? delayed : onTime))
        }
        return Section(title: "Arrivals", cards: cards)
    }

    private static func notices() -> Section {
        let texts = [
            ("Step-free access", "Lifts serve all platforms. Ask staff at the ticket hall for ramp assistance."),
            ("Engineering works", "Sunday: buses replace trains between Glenholt and Marrowby from 06:00 to 14:00."),
            ("Ticket office", "Open 06:00 to 20:00 daily. Machines on the concourse accept cards and phones."),
            ("Lost property", "Items found on trains are kept at the information desk for 14 days."),
            ("Cycle storage", "Secure cycle parking for 120 bikes next to the east entrance."),
            ("Café and shop", "The concourse café is open until 21:00; the shop until 22:30."),
        ]
        let cards = texts.enumerated().map { number, text in
            Card(
                id: "note-\(number + 1)", title: text.0, body: text.1, color: Color(red: 0xe8, green: 0xee, blue: 0xf8))
        }
        return Section(title: "Station notices", cards: cards)
    }
}
