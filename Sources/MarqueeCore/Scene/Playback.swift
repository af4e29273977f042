/// The state of a running `play` (docs/protocol.md, "Playback"), kept by the scene and advanced
/// by its frames: a pure function of the frames' target times, like every other animation.
public struct Playback: Equatable, Sendable {
    /// Every option set (`PlaybackSettings.filled(from:)`).
    public let settings: PlaybackSettings
    public internal(set) var isPaused = false
    var phase: Phase

    enum Phase: Equatable, Sendable {
        /// Resting on a page until this link time; then the next page move starts, exactly then.
        case dwelling(until: Double)
        /// A page move under way (the scroll animator runs it); the dwell starts at the target
        /// time of the frame that ends it.
        case moving
        /// Paused while resting, with this much of the dwell left (resume rests that long).
        case held(remaining: Double)
        /// The ticker: the offset at `anchor.time` was `anchor.offset`, and every frame's offset
        /// is `anchor.offset + speed × (target − anchor.time)`, reduced by the loop length. nil
        /// until the first frame after a start or a resume, which sets it (that frame draws the
        /// offset where the ticker starts, as a scroll's first frame does).
        case ticking(anchor: TickerAnchor?)
    }

    struct TickerAnchor: Equatable, Sendable {
        var time: Double
        var offset: Double
        /// The loop length the anchor was taken with: edits that change it re-anchor the ticker
        /// where it is, so the deck changing under it never makes it jump.
        var period: Double
    }

    init(settings: PlaybackSettings, phase: Phase) {
        self.settings = settings
        self.phase = phase
    }

    public var isTicker: Bool { settings.isTicker }

    /// The dwell's end, while playback waits for it (not paused): the one wake-up it needs.
    public var dwellEnd: Double? {
        if !isPaused, case .dwelling(let until) = phase { return until }
        return nil
    }
}

/// Why `pause` or `resume` cannot do what it says.
public struct PlaybackError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
