/// Decoding of the deck's `playback` member (docs/deck-format.md, "playback"): a deck that plays
/// by itself. Its fields mirror the options of `play` (docs/protocol.md).
extension DeckDecoder {
    private static let playbackFields = ["mode", "cards", "dwell", "duration", "curve", "wrap", "speed"]

    /// The playback `json` asks for, or nil (with every problem reported at its path).
    mutating func playback(_ json: JSONValue, path: String) -> PlaybackSettings? {
        guard let members = members(json, path: path, allowed: Self.playbackFields) else { return nil }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        guard let modeJSON = fields["mode"] else {
            report(path + ".mode", "missing (\"pages\", \"cards\" or \"ticker\")")
            return nil
        }
        guard let modeName = string(modeJSON, path: path + ".mode") else { return nil }
        var settings: PlaybackSettings
        switch modeName {
        case "pages": settings = PlaybackSettings(mode: .pages)
        case "ticker": settings = PlaybackSettings(mode: .ticker)
        case "cards":
            guard let countJSON = fields["cards"] else {
                report(path + ".cards", "missing (\"mode\": \"cards\" moves this many cards at a time)")
                return nil
            }
            guard case .number(let countNumber) = countJSON else {
                report(path + ".cards", "expected a number, found \(countJSON.typeName)")
                return nil
            }
            let count = countNumber.value
            if let problem = PlaybackSettings.problem(cards: count) {
                report(path + ".cards", "\(Self.format(count)) \(problem)")
                return nil
            }
            settings = PlaybackSettings(mode: .cards(Int(count)))
        default:
            report(
                path + ".mode", "unknown mode \(MessageText.quoted(modeName)) (use \"pages\", \"cards\" or \"ticker\")")
            return nil
        }
        var valid = true
        if case .cards = settings.mode {
        } else if fields["cards"] != nil {
            report(path + ".cards", "only \"mode\": \"cards\" takes a number of cards")
            valid = false
        }
        let pagingOnly = ["dwell", "duration", "curve", "wrap"]
        for name in pagingOnly where settings.isTicker && fields[name] != nil {
            report("\(path).\(name)", "a ticker takes only \"speed\" (it never rests and always loops)")
            valid = false
        }
        if fields["speed"] != nil && !settings.isTicker {
            report(path + ".speed", "only \"mode\": \"ticker\" takes a speed")
            valid = false
        }
        func seconds(_ name: String) -> Double? {
            guard let json = fields[name] else { return nil }
            guard case .number(let number) = json else {
                report("\(path).\(name)", "expected a number of seconds, found \(json.typeName)")
                valid = false
                return nil
            }
            let value = number.value
            if let problem = PlaybackSettings.problem(seconds: value) {
                report("\(path).\(name)", "\(Self.format(value)) \(problem)")
                valid = false
                return nil
            }
            return value
        }
        settings.dwell = seconds("dwell")
        settings.duration = seconds("duration")
        if let json = fields["curve"], let name = string(json, path: path + ".curve") {
            if let curve = TimingCurve(name: name) {
                settings.curve = curve
            } else {
                report(
                    path + ".curve",
                    "unknown curve \(MessageText.quoted(name)) (use \(TimingCurve.choices))"
                )
                valid = false
            }
        }
        if let json = fields["wrap"] {
            if let wrap = choice(json, path: path + ".wrap", of: PlaybackSettings.Wrap.self) {
                settings.wrap = wrap
            } else {
                valid = false
            }
        }
        if let json = fields["speed"], settings.isTicker {
            if case .number(let number) = json, PlaybackSettings.problem(speed: number.value) == nil {
                settings.speed = number.value
            } else if case .number(let number) = json {
                let value = number.value
                report(path + ".speed", "\(Self.format(value)) \(PlaybackSettings.problem(speed: value)!)")
                valid = false
            } else {
                report(path + ".speed", "expected a number (px/s), found \(json.typeName)")
                valid = false
            }
        }
        return valid ? settings : nil
    }
}
