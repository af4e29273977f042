/// One card of the collection (SPEC §2).
public struct Card: Hashable, Sendable {
    /// Unique across the deck.
    public var id: String
    public var title: String
    /// May hold several lines, separated by "\n".
    public var body: String
    /// The card's own background; the deck style's card color when nil.
    public var color: Color?
    /// A bar along the card's left edge, when set.
    public var accent: Color?
    /// The card's own height in a `list` layout; ignored by `grid`.
    public var height: Double?
    /// The paragraph direction of the card's title and body; the style's `direction` when nil.
    public var direction: TextDirection?
    /// The name of the deck template that shapes the card; nil for the built-in `default`
    /// (title, body and accent bar).
    public var template: String?
    /// The values a template's elements show, by field name.
    public var fields: [String: String]
    /// When the card's data goes stale (seconds since the epoch, from RFC 3339 in decks): from
    /// then on it is drawn at the style's `staleAlpha` until it is updated or removed.
    public var expires: Double?

    public init(
        id: String, title: String = "", body: String = "", color: Color? = nil, accent: Color? = nil,
        height: Double? = nil, direction: TextDirection? = nil, template: String? = nil,
        fields: [String: String] = [:], expires: Double? = nil
    ) {
        self.expires = expires
        self.template = template
        self.fields = fields
        self.direction = direction
        self.id = id
        self.title = title
        self.body = body
        self.color = color
        self.accent = accent
        self.height = height
    }
}

/// An ordered group of cards with an optional header title.
public struct Section: Equatable, Sendable {
    public var title: String?
    /// Names the section across deck states, for `apply`; without it a section is matched by its
    /// title, then by its position.
    public var id: String?
    public var cards: CardList

    public init(title: String? = nil, id: String? = nil) {
        self.title = title
        self.id = id
        self.cards = CardList()
    }

    public init<Cards: Sequence>(title: String? = nil, id: String? = nil, cards: Cards) where Cards.Element == Card {
        self.title = title
        self.id = id
        self.cards = cards as? CardList ?? CardList(cards)
    }
}
