import MarqueeCore

/// One protocol command (SPEC §8), decoded and checked, not yet applied.
public enum Command: Equatable, Sendable {
    case scrollTo(ScrollTarget, ScrollOptions)
    case scrollBy(ScrollAmount, ScrollOptions)
    case wait(WaitCondition)
    case snapshot(path: String)
    case load(path: String)
    case quit
    case insert(CardPlace, Card)
    case delete(CardReference)
    case move(CardReference, to: CardPlace)
    /// Sets the keys and fields given; the card's others keep their values.
    case update(CardReference, CardPatch)
    /// Replaces the card whole.
    case replace(CardReference, Card)
    case insertSection(Int, Section)
    case deleteSection(Int)
    case batch
    case commit
    /// `appear [stagger=S] [duration=S]`; nil means the default (0.08 s; the deck's transition).
    case appear(stagger: Double?, duration: Double?)
    /// `apply FILE` or `apply {DECK_JSON}`: a whole new deck state, shown as one animated batch of
    /// its differences from the current one.
    case apply(DeckSource)
    /// `play pages|cards N|ticker [options]`: signage playback (options left out are nil).
    case play(PlaybackSettings)
    case pause
    case resume
    case stop
    /// `alert {"template":...,"fields":{...}}`: a message over everything until `alert-clear`.
    case alert(AlertMessage)
    case alertClear
    /// `display off` / `display on`: no frames are rendered while off.
    case display(on: Bool)

    /// Whether the command edits the deck (and so may stand between `batch` and `commit`).
    public var isEdit: Bool {
        switch self {
        case .insert, .delete, .move, .update, .replace, .insertSection, .deleteSection: return true
        default: return false
        }
    }

    /// The command's name as typed, for messages.
    public var name: String {
        switch self {
        case .scrollTo: return "scroll-to"
        case .scrollBy: return "scroll-by"
        case .wait: return "wait"
        case .snapshot: return "snapshot"
        case .load: return "load"
        case .quit: return "quit"
        case .insert: return "insert"
        case .delete: return "delete"
        case .move: return "move"
        case .update: return "update"
        case .replace: return "replace"
        case .insertSection: return "insert-section"
        case .deleteSection: return "delete-section"
        case .batch: return "batch"
        case .commit: return "commit"
        case .appear: return "appear"
        case .apply: return "apply"
        case .play: return "play"
        case .pause: return "pause"
        case .resume: return "resume"
        case .stop: return "stop"
        case .alert: return "alert"
        case .alertClear: return "alert-clear"
        case .display: return "display"
        }
    }
}

/// `duration=S` and `curve=NAME`; nil means the default (0.6 s, ease-in-out).
public struct ScrollOptions: Equatable, Sendable {
    public static let defaultDuration = 0.6

    public var duration: Double?
    public var curve: TimingCurve?

    public init(duration: Double? = nil, curve: TimingCurve? = nil) {
        self.duration = duration
        self.curve = curve
    }
}

public enum ScrollAmount: Equatable, Sendable {
    /// Rows (cards in a list, grid rows).
    case rows(Int)
    case pixels(Double)
}

public enum WaitCondition: Equatable, Sendable {
    case seconds(Double)
    /// Until nothing animates.
    case idle
}

/// One line of input as the decoder understood it: a command, or why it is not one. Every line
/// that is neither blank nor a comment becomes exactly one of these, and so gets one reply.
public enum DecodedLine: Equatable, Sendable {
    case command(Command)
    case invalid(String)
}

/// Where `apply` finds its deck.
public enum DeckSource: Equatable, Sendable {
    /// A deck file (resolved against `--restrict-paths` by the session).
    case file(String)
    /// The deck's JSON, given on the command line itself.
    case json(String)
}
