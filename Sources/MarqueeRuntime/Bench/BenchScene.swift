import MarqueeCore
import MarqueeDisplay

/// The scenes `marquee bench --scene` renders (SPEC §10 and issue 5). Each is a deck, a size, and
/// what happens over its frames; all run on a 60 Hz clock with frame k at time k / 60.
public enum BenchScene: String, CaseIterable, Sendable {
    /// SPEC §10: 10,000 cards, card 0 to card 5000 in 2 s: every frame shows new cards.
    case cards1080p = "cards-1080p"
    /// The same deck scrolling 12 cards in 2 s, so that the caches can work.
    case cards1080pSlow = "cards-1080p-slow"
    /// SPEC §10's scroll over cards whose titles and bodies are in Arabic, Hebrew, Hindi, Chinese
    /// and Latin, one script per card in turn: shaping, bidi, fallback and line breaking on
    /// every new card.
    case cards1080pWorld = "cards-1080p-world"
    /// cards-1080p's scroll over 10,000 cards of the departure template: columns, a coloured
    /// status, a logo (PNG files made by the bench, decoded by an image store) and a marquee line.
    case departures1080p = "departures-1080p"
    /// A café menu: a 3-column grid of 1,000 cards, each a 600x400 JPEG (200 distinct files made
    /// by the bench) shown in a photo box, a name and a price, scrolled from the first card to the
    /// last in 4 s, twice: first with every picture still to decode, then with all of them
    /// decoded. Paced in real time (`pacedInRealTime`).
    case menu1080pImages = "menu-1080p-images"
    /// A batch of 3 inserts and 3 deletes in view, over the transition's 0.35 s.
    case transitions1080p = "transitions-1080p"
    /// One card in view updated in place (its old content fades out over the new, 0.35 s) while
    /// the rest of the board stands still: a departure board's everyday frame.
    case update1080p = "update-1080p"
    /// A 480x320 SPI panel: a smaller deck scrolling 12 cards in 2 s, each frame also converted to
    /// RGB565 and copied out as the fbdev backend does.
    case cardsSPI = "cards-spi"

    public var defaultSize: PixelSize {
        self == .cardsSPI ? PixelSize(width: 480, height: 320) : PixelSize(width: 1920, height: 1080)
    }

    /// Seconds of animation the frames cover.
    public var duration: Double {
        switch self {
        case .transitions1080p, .update1080p: 0.35
        case .menu1080pImages: 4.0
        default: 2.0
        }
    }

    /// Cards in the deck when `--cards` is not given.
    public var defaultCards: Int { self == .menu1080pImages ? 1000 : BenchRunner.defaultCards }

    /// Whether the scene's template shows pictures, decoded by a real `ImageStore` from files the
    /// bench writes into a temporary folder.
    var showsImages: Bool { self == .departures1080p || self == .menu1080pImages }

    /// Whether each frame waits for its target time on the real clock before it is drawn, as on a
    /// display: the image store's workers decode in real time, so a scene that runs through its
    /// frames as fast as it can would find every new picture still pending. The frame's time (the
    /// virtual clock the scene and the fade-ins use) is then the real time since the scroll began.
    var pacedInRealTime: Bool { self == .menu1080pImages }

    /// One frame per 60 Hz vblank over the duration (120, or 21 for the transitions).
    public var defaultFrames: Int { Int((duration * 60).rounded()) }

    /// What the scene does at time 0, given the deck size: the scroll target, or nil for the
    /// scenes that edit instead.
    func scrollTarget(cards: Int, override: Int?) -> Int? {
        switch self {
        case .cards1080p, .cards1080pWorld, .departures1080p: override ?? cards / 2
        case .menu1080pImages: override ?? cards - 1
        case .cards1080pSlow, .cardsSPI: override ?? 12
        case .transitions1080p, .update1080p: nil
        }
    }

    /// Whether the scene edits the deck in view instead of scrolling.
    public var edits: Bool { self == .transitions1080p || self == .update1080p }

    /// Whether each frame is also sent through the fbdev scan-out stage as RGB565.
    var convertsToRGB565: Bool { self == .cardsSPI }

    /// The SPEC §10 deck, or for the SPI panel the same cards at a size that fits it.
    func deck(cards: Int) -> Deck {
        var deck: Deck
        switch self {
        case .cards1080pWorld: deck = BenchRunner.worldDeck(cards: cards)
        case .departures1080p: deck = BenchRunner.departuresDeck(cards: cards)
        case .menu1080pImages: deck = BenchRunner.menuDeck(cards: cards)
        default: deck = BenchRunner.deck(cards: cards)
        }
        if self == .cardsSPI {
            deck.layout.insets = EdgeInsets(all: 12)
            deck.layout.spacing = 8
            deck.layout.cardHeight = 76
            deck.style.cornerRadius = 8
            deck.style.titleSize = 18
            deck.style.bodySize = 12
            deck.style.padding = 10
        }
        return deck
    }
}
