/// What is shown: sections of cards, how they are laid out and how they look (docs/deck-format.md).
public struct Deck: Equatable, Sendable {
    public var sections: [Section]
    public var layout: LayoutConfiguration
    public var style: Style
    /// Properties that follow the scroll percentage.
    public var bindings: Bindings
    /// Card shapes by name (cards name one in `template`).
    public var templates: [String: CardTemplate] = [:]
    /// How the deck plays by itself (pages, cards or a ticker), nil for not at all.
    public var playback: PlaybackSettings?
    /// Bands fixed to the screen's top or bottom edge, over the content (`overlays`).
    public var overlays: [Overlay] = []
    /// Rules by weekday and local time that show only some sections or turn the display off.
    public var schedule: [ScheduleRule] = []

    public init(
        sections: [Section] = [], layout: LayoutConfiguration = .init(), style: Style = .init(),
        bindings: Bindings = .init()
    ) {
        self.sections = sections
        self.layout = layout
        self.style = style
        self.bindings = bindings
    }

    /// The template a card names, nil for the built-in `default` (or a name the deck lacks,
    /// which the decoder refuses).
    public func template(of card: Card) -> CardTemplate? {
        guard let name = card.template, name != CardTemplate.defaultName else { return nil }
        return templates[name]
    }

    /// The height a card takes in a list: its own, its template's, or the layout's.
    public func listHeight(of card: Card) -> Double? { Self.listHeight(of: card, templates: templates) }

    public static func listHeight(of card: Card, templates: [String: CardTemplate]) -> Double? {
        if let height = card.height { return height }
        guard let name = card.template, name != CardTemplate.defaultName else { return nil }
        return templates[name]?.height
    }

    /// Whether a card has this id: O(sections · log n) through each section's id map.
    public func containsCard(withID id: String) -> Bool { sections.contains { $0.cards.contains(id: id) } }

    public var cardCount: Int { sections.reduce(0) { $0 + $1.cards.count } }

    /// The global index of section `section`'s first card (the card count when it is past the
    /// last section). Linear in the number of sections, which is small next to the number of cards.
    public func firstCardIndex(ofSection section: Int) -> Int {
        sections[..<min(section, sections.count)].reduce(0) { $0 + $1.cards.count }
    }

    /// The global index of a card given by section and item, or nil when out of range.
    public func globalIndex(section: Int, item: Int) -> Int? {
        guard sections.indices.contains(section), sections[section].cards.indices.contains(item) else { return nil }
        return firstCardIndex(ofSection: section) + item
    }

    /// The global index of the card with this id: O(sections · log n).
    public func globalIndex(ofCardWithID id: String) -> Int? {
        var base = 0
        for section in sections {
            if let item = section.cards.position(ofID: id) { return base + item }
            base += section.cards.count
        }
        return nil
    }
}

public enum LayoutKind: String, Equatable, Sendable {
    case list
    case grid
}

public struct EdgeInsets: Equatable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }
}

/// How cards are placed (SPEC §2). Heights are fixed per layout; a card's own `height` overrides
/// `cardHeight` in a list.
public struct LayoutConfiguration: Equatable, Sendable {
    public var kind: LayoutKind = .list
    public var columns: Int = 1
    public var insets = EdgeInsets(all: 40)
    public var spacing: Double = 24
    public var cardHeight: Double = 160
    /// Height of a section header row (the header's title is drawn inside it).
    public var headerHeight: Double = 64

    public init() {}
}

/// How cards look (SPEC §6). Fonts are fontconfig patterns ("DejaVu Sans:bold").
public struct Style: Equatable, Sendable {
    public var background = Color(red: 0x1e, green: 0x24, blue: 0x30)
    public var cardColor = Color.white
    public var cardAlpha: Double = 0.92
    public var cornerRadius: Double = 16
    public var textColor = Color(red: 0x1a, green: 0x1a, blue: 0x1f)
    public var headerColor = Color(red: 0xf2, green: 0xf2, blue: 0xf5)
    public var titleFont = "DejaVu Sans:bold"
    public var bodyFont = "DejaVu Sans"
    public var headerFont = "DejaVu Sans:bold"
    public var titleSize: Double = 40
    public var bodySize: Double = 24
    public var headerSize: Double = 32
    public var padding: Double = 24
    public var accentWidth: Double = 8
    /// Seconds that insert, delete, move and update transitions take (SPEC §5).
    public var transitionDuration: Double = 0.35
    /// The opacity a card fades to once its `expires` time has passed (SPEC §14).
    public var staleAlpha: Double = 0.45
    /// Paragraph direction of every text (cards may set their own): `auto` takes it from the
    /// first strong character.
    public var direction: TextDirection = .auto
    /// Where lines sit in the card's text box; `start` is the right edge in right-to-left text.
    public var align: TextAlign = .start

    public init() {}
}
