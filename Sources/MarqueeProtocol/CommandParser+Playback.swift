import MarqueeCore

/// `play pages [dwell=S] [duration=S] [curve=NAME] [wrap=rewind|loop]`, `play cards N [...]` and
/// `play ticker [speed=PX]` (docs/protocol.md, "Playback").
extension CommandParser {
    public static let playUsage =
        "play pages|cards N [dwell=S] [duration=S] [curve=NAME] [wrap=rewind|loop] | play ticker [speed=PX]"

    static func playback(_ arguments: [Substring]) throws(CommandError) -> PlaybackSettings {
        guard let modeWord = arguments.first else {
            throw missing("what to play (pages, cards N or ticker)", for: "play")
        }
        var options = arguments.dropFirst()
        var settings: PlaybackSettings
        switch modeWord {
        case "pages": settings = PlaybackSettings(mode: .pages)
        case "ticker": settings = PlaybackSettings(mode: .ticker)
        case "cards":
            guard let countWord = options.first else { throw missing("a number of cards", for: "play") }
            options = options.dropFirst()
            guard let count = DecimalNumber.parse(countWord), PlaybackSettings.problem(cards: count) == nil else {
                throw CommandError(
                    "play cards: \(MessageText.quoted(countWord)) is not a whole number of cards from 1 to \(PlaybackSettings.maximumCards)"
                )
            }
            settings = PlaybackSettings(mode: .cards(Int(count)))
        default:
            throw CommandError(
                "play: unknown mode \(MessageText.quoted(modeWord)) (use pages, cards N or ticker; usage: \(playUsage))"
            )
        }
        let what = "play \(settings.mode.name)"
        for word in options {
            guard let equals = word.firstIndex(of: "=") else {
                throw CommandError("\(what): unknown option \(MessageText.quoted(word)) (usage: \(playUsage))")
            }
            let key = word[..<equals]
            let value = word[word.index(after: equals)...]
            let allowed = settings.isTicker ? ["speed"] : ["dwell", "duration", "curve", "wrap"]
            guard allowed.contains(String(key)) else {
                let known = allowed.joined(separator: ", ")
                throw CommandError(
                    "\(what): unknown option \(MessageText.quoted(word)) (\(what) takes \(known); usage: \(playUsage))")
            }
            switch key {
            case "dwell": settings.dwell = try seconds(value, what: "\(what) dwell")
            case "duration": settings.duration = try seconds(value, what: "\(what) duration")
            case "curve":
                guard let curve = TimingCurve(name: String(value)) else {
                    throw CommandError(
                        "\(what): unknown curve \(MessageText.quoted(value)) (use \(TimingCurve.choices))"
                    )
                }
                settings.curve = curve
            case "wrap":
                guard let wrap = PlaybackSettings.Wrap(rawValue: String(value)) else {
                    throw CommandError("\(what): wrap=\(MessageText.quoted(value)) is not rewind or loop")
                }
                settings.wrap = wrap
            default:
                guard let speed = DecimalNumber.parse(value), PlaybackSettings.problem(speed: speed) == nil else {
                    throw CommandError(
                        "\(what): speed=\(MessageText.quoted(value)) \(PlaybackSettings.problem(speed: .nan)!)")
                }
                settings.speed = speed
            }
        }
        return settings
    }
}
