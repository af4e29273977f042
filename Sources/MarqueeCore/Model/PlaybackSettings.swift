/// What `play pages`, `play cards N` and `play ticker` ask for, and a deck's own `"playback"`
/// (docs/protocol.md, "Playback"; docs/deck-format.md, "playback"). An option left out is nil:
/// it is taken from the deck's own `playback` when the deck has one, then from the defaults
/// (`filled(from:)`), so `play pages` on a deck that says `"duration": 1.2` pages with 1.2 s moves.
public struct PlaybackSettings: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        /// One page (the height of the space the content scrolls in, ending on a card row) at a time.
        case pages
        /// N cards at a time (whole rows in a grid).
        case cards(Int)
        /// A continuous scroll at a constant speed, looping seamlessly.
        case ticker

        public var name: String {
            switch self {
            case .pages: return "pages"
            case .cards: return "cards"
            case .ticker: return "ticker"
            }
        }
    }

    /// What paging does after the deck's last row.
    public enum Wrap: String, Equatable, Sendable, CaseIterable {
        /// Scrolls back to the start.
        case rewind
        /// Carries on as if the deck repeated: its first cards come again after its last.
        case loop
    }

    public static let defaultDwell = 8.0
    public static let defaultDuration = 0.6
    public static let defaultSpeed = 80.0
    /// Longer dwells and moves are refused as mistakes (a day), as `wait` and `duration=` are.
    public static let maximumSeconds = 86_400.0
    /// A ticker faster than this (px/s) is refused: at 60 Hz it already moves 1,666 px a frame.
    public static let maximumSpeed = 100_000.0
    /// `play cards N` beyond this is refused (no deck has that many cards).
    public static let maximumCards = 1_000_000_000

    public var mode: Mode
    /// Seconds a page rests before the next move.
    public var dwell: Double?
    /// Seconds a page move takes.
    public var duration: Double?
    public var curve: TimingCurve?
    public var wrap: Wrap?
    /// The ticker's speed, px/s.
    public var speed: Double?

    public init(
        mode: Mode, dwell: Double? = nil, duration: Double? = nil, curve: TimingCurve? = nil, wrap: Wrap? = nil,
        speed: Double? = nil
    ) {
        self.mode = mode
        self.dwell = dwell
        self.duration = duration
        self.curve = curve
        self.wrap = wrap
        self.speed = speed
    }

    /// Every option set: those left out taken from `fallback` (the deck's own `playback`), the
    /// rest from the defaults.
    public func filled(from fallback: PlaybackSettings?) -> PlaybackSettings {
        PlaybackSettings(
            mode: mode,
            dwell: dwell ?? fallback?.dwell ?? Self.defaultDwell,
            duration: duration ?? fallback?.duration ?? Self.defaultDuration,
            curve: curve ?? fallback?.curve ?? .default,
            wrap: wrap ?? fallback?.wrap ?? .rewind,
            speed: speed ?? fallback?.speed ?? Self.defaultSpeed)
    }

    public var isTicker: Bool { mode == .ticker }

    /// Whether the content is drawn as if the deck repeated (a ticker always loops).
    public var loops: Bool { mode == .ticker || wrap == .loop }

    /// Why a value cannot be a dwell or a duration, or nil when it can.
    public static func problem(seconds value: Double) -> String? {
        value.isFinite && value >= 0 && value <= maximumSeconds
            ? nil : "is not a number of seconds from 0 to \(Int(maximumSeconds))"
    }

    /// Why a value cannot be a ticker speed, or nil when it can.
    public static func problem(speed value: Double) -> String? {
        value.isFinite && value > 0 && value <= maximumSpeed
            ? nil : "is not a speed in px/s above 0 and at most \(Int(maximumSpeed))"
    }

    /// Why a value cannot be the N of `play cards N`, or nil when it can.
    public static func problem(cards value: Double) -> String? {
        value.isFinite && value == value.rounded() && value >= 1 && value <= Double(maximumCards)
            ? nil : "is not a whole number of cards from 1 to \(maximumCards)"
    }
}
