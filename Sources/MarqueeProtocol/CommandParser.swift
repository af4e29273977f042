import MarqueeCore

/// Why a line is not a command; the message goes back in the error reply.
public struct CommandError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Parses the text of one line into a `Command` (SPEC §8).
public enum CommandParser {
    /// Durations and waits longer than this are refused as mistakes (a day).
    public static let maximumSeconds = 86_400.0
    /// `scroll-by N` beyond this many rows either way is refused (no deck has that many rows, so
    /// a larger N only ever means a typo, and it keeps N times the column count far from overflow).
    public static let maximumRows = 1_000_000_000

    static let usage: [String: String] = [
        "scroll-to": "scroll-to TARGET [duration=S] [curve=NAME]",
        "scroll-by": "scroll-by N | scroll-by PXpx [duration=S] [curve=NAME]",
        "wait": "wait SECONDS | wait idle",
        "snapshot": "snapshot PATH.png",
        "load": "load DECK.json",
        "quit": "quit",
        "insert": "insert INDEX|S:I|id:ID CARD_JSON",
        "delete": "delete INDEX|S:I|id:ID",
        "move": "move FROM TO (each INDEX, S:I or id:ID)",
        "update": "update INDEX|S:I|id:ID CARD_JSON (only the keys and fields given change)",
        "replace": "replace INDEX|S:I|id:ID CARD_JSON",
        "insert-section": "insert-section INDEX SECTION_JSON",
        "delete-section": "delete-section INDEX",
        "appear": "appear [stagger=S] [duration=S]",
        "batch": "batch",
        "commit": "commit",
        "apply": "apply DECK.json | apply {DECK_JSON}",
        "play": playUsage,
        "pause": "pause",
        "resume": "resume",
        "stop": "stop",
        "alert": "alert {\"template\":NAME,\"fields\":{...}}",
        "alert-clear": "alert-clear",
        "display": "display on|off",
    ]

    /// Every command the protocol has (docs/protocol.md, "Commands"), so that a list written
    /// elsewhere (`marquee run --help`) can be checked against it.
    public static var commandNames: [String] { usage.keys.sorted() }

    /// nil for a blank line or a comment.
    public static func parse(_ text: String) -> Result<Command, CommandError>? {
        if let apply = parseApply(text) { return apply }
        if let signage = parseSignage(text) { return signage }
        if let withJSON = parseCommandWithJSON(text) { return withJSON }
        let words = tokenize(text)
        guard let name = words.first else { return nil }
        let arguments = Array(words.dropFirst())
        do {
            return .success(try command(name, arguments))
        } catch {
            return .failure(error)
        }
    }

    /// Splits at spaces and tabs, keeping `(...)` together (so `cubic-bezier(0, 0, 1, 1)` is one
    /// word), and stops at a word that starts with `#` (a comment).
    static func tokenize(_ text: String) -> [Substring] {
        var words: [Substring] = []
        var start: String.Index?
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if start == nil {
                if character == " " || character == "\t" {
                    index = text.index(after: index)
                    continue
                }
                if character == "#" { break }
                start = index
            }
            if character == "(" { depth += 1 }
            if character == ")" { depth = max(0, depth - 1) }
            if (character == " " || character == "\t"), depth == 0, let wordStart = start {
                words.append(text[wordStart..<index])
                start = nil
            }
            index = text.index(after: index)
        }
        if let start { words.append(text[start...]) }
        return words
    }

    private static func command(_ name: Substring, _ arguments: [Substring]) throws(CommandError) -> Command {
        switch name {
        case "scroll-to":
            guard let target = arguments.first else { throw missing("a target", for: "scroll-to") }
            return .scrollTo(try scrollTarget(target), try scrollOptions(arguments.dropFirst(), command: "scroll-to"))
        case "scroll-by":
            guard let amount = arguments.first else { throw missing("an amount", for: "scroll-by") }
            return .scrollBy(try scrollAmount(amount), try scrollOptions(arguments.dropFirst(), command: "scroll-by"))
        case "wait":
            guard arguments.count == 1 else { throw wrongCount("wait") }
            if arguments[0] == "idle" { return .wait(.idle) }
            return .wait(.seconds(try seconds(arguments[0], what: "wait")))
        case "snapshot":
            guard arguments.count == 1 else { throw wrongCount("snapshot") }
            guard arguments[0].lowercased().hasSuffix(".png"), arguments[0].count > 4 else {
                throw CommandError("snapshot: the path must end in .png (usage: \(usage["snapshot"]!))")
            }
            return .snapshot(path: String(arguments[0]))
        case "load":
            guard arguments.count == 1 else { throw wrongCount("load") }
            return .load(path: String(arguments[0]))
        case "quit":
            guard arguments.isEmpty else { throw wrongCount("quit") }
            return .quit
        case "delete":
            guard arguments.count == 1 else { throw wrongCount("delete") }
            return .delete(try cardReference(arguments[0], command: "delete"))
        case "move":
            guard arguments.count == 2 else { throw wrongCount("move") }
            return .move(
                try cardReference(arguments[0], command: "move"), to: try cardPlace(arguments[1], command: "move"))
        case "insert", "update", "replace":
            throw missing("card JSON", for: String(name))
        case "insert-section":
            throw missing("section JSON", for: "insert-section")
        case "delete-section":
            guard arguments.count == 1 else { throw wrongCount("delete-section") }
            guard let index = wholeNumber(arguments[0]), index >= 0 else {
                throw CommandError(
                    "delete-section: \(MessageText.quoted(arguments[0])) is not a section index (usage: \(usage["delete-section"]!))"
                )
            }
            return .deleteSection(index)
        case "appear":
            var stagger: Double?
            var duration: Double?
            for word in arguments {
                if word.hasPrefix("stagger=") {
                    stagger = try seconds(word.dropFirst("stagger=".count), what: "appear stagger")
                } else if word.hasPrefix("duration=") {
                    duration = try seconds(word.dropFirst("duration=".count), what: "appear duration")
                } else {
                    throw CommandError(
                        "appear: unknown option \(MessageText.quoted(word)) (usage: \(usage["appear"]!))")
                }
            }
            return .appear(stagger: stagger, duration: duration)
        case "batch":
            guard arguments.isEmpty else { throw wrongCount("batch") }
            return .batch
        case "commit":
            guard arguments.isEmpty else { throw wrongCount("commit") }
            return .commit
        case "play":
            return .play(try playback(arguments))
        case "pause", "resume", "stop":
            guard arguments.isEmpty else { throw wrongCount(String(name)) }
            return name == "pause" ? .pause : name == "resume" ? .resume : .stop
        default:
            let known = usage.keys.sorted().joined(separator: ", ")
            throw CommandError("unknown command \(MessageText.quoted(name)) (known commands: \(known))")
        }
    }

    static func missing(_ what: String, for command: String) -> CommandError {
        CommandError("\(command): missing \(what) (usage: \(usage[command]!))")
    }

    static func wrongCount(_ command: String) -> CommandError {
        CommandError("\(command): wrong number of arguments (usage: \(usage[command]!))")
    }

    /// `insert` and `update` end with card JSON, which may hold `#` (colors) and spaces, so the
    /// JSON is the rest of the line after the place, taken as it is.
    /// `apply FILE` or `apply {...}`: the JSON is the rest of the line as it is (a `#` inside it
    /// is no comment); it is decoded with the deck, off the frame path.
    static func parseApply(_ text: String) -> Result<Command, CommandError>? {
        let words = text.split(maxSplits: 1, omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
        guard words.first == "apply" else { return nil }
        let rest = words.count > 1 ? words[1].drop { $0 == " " || $0 == "\t" } : ""
        if rest.first == "{" { return .success(.apply(.json(String(rest)))) }
        let arguments = tokenize(String(rest))
        guard arguments.count == 1 else {
            return .failure(arguments.isEmpty ? missing("a deck file or deck JSON", for: "apply") : wrongCount("apply"))
        }
        return .success(.apply(.file(String(arguments[0]))))
    }

    static func parseCommandWithJSON(_ text: String) -> Result<Command, CommandError>? {
        let words = text.split(maxSplits: 2, omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
        guard let name = words.first, ["insert", "update", "replace", "insert-section"].contains(name), words.count == 3
        else {
            return nil
        }
        let command = String(name)
        do throws(CommandError) {
            let json = words[2].drop { $0 == " " || $0 == "\t" }
            if command == "insert-section" {
                guard let index = wholeNumber(words[1]), index >= 0 else {
                    throw CommandError(
                        "insert-section: \(MessageText.quoted(words[1])) is not a section index (usage: \(usage[command]!))"
                    )
                }
                do {
                    return .success(
                        .insertSection(
                            index, try DeckDecoder.decodeSection(try JSONParser.parse(String(json)), path: "section")))
                } catch let error as DeckError {
                    throw CommandError("insert-section: \(error.summary)")
                } catch {
                    throw CommandError("insert-section: the section is not valid JSON: \(error)")
                }
            }
            if command == "update" {
                do {
                    let patch = try DeckDecoder.decodeCardPatch(try JSONParser.parse(String(json)), path: "card")
                    return .success(.update(try cardReference(words[1], command: "update"), patch))
                } catch let error as DeckError {
                    throw CommandError("update: \(error.summary)")
                } catch let error as CommandError {
                    throw error
                } catch {
                    throw CommandError("update: the card is not valid JSON: \(error)\(idHint(words[1], json))")
                }
            }
            let card: Card
            do {
                card = try DeckDecoder.decodeCard(
                    try JSONParser.parse(String(json)), path: "card", requireID: command == "insert")
            } catch let error as DeckError {
                throw CommandError("\(command): \(error.summary)")
            } catch {
                throw CommandError("\(command): the card is not valid JSON: \(error)\(idHint(words[1], json))")
            }
            if command == "insert" { return .success(.insert(try cardPlace(words[1], command: "insert"), card)) }
            return .success(.replace(try cardReference(words[1], command: "replace"), card))
        } catch {
            return .failure(error)
        }
    }

    /// What to add to a JSON error when the address is `id:…` and the text after it does not start
    /// a JSON object: most likely an id with a space (`update id:gate 4 {…}`), which commands
    /// cannot name, since the id ends at the first space.
    static func idHint(_ address: Substring, _ json: Substring) -> String {
        guard address.hasPrefix("id:"), address.count > 3, !json.hasPrefix("{") else { return "" }
        return "; a card id is one word: \(address) names \(MessageText.quoted(address.dropFirst(3)))"
    }

    /// `N`, `S:I` or `id:ID`: how every card-addressing command names a card or a place.
    enum CardAddress {
        case index(Int)
        case sectionItem(section: Int, item: Int)
        case id(String)
    }

    /// Numbers that do not fit in an Int (`Int("99999999999999999999")` is nil) and negative ones
    /// are refused here, so no later arithmetic sees them.
    static func cardAddress(_ word: Substring, command: String) throws(CommandError) -> CardAddress {
        if word.hasPrefix("id:") {
            guard word.count > 3 else { throw CommandError("\(command): id: needs a card id (id:ID)") }
            return .id(String(word.dropFirst(3)))
        }
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let section = wholeNumber(parts[0]), let item = wholeNumber(parts[1]), section >= 0, item >= 0 else {
                throw CommandError(
                    "\(command): \(MessageText.quoted(word)) is not SECTION:ITEM (two whole numbers ≥ 0)")
            }
            return .sectionItem(section: section, item: item)
        }
        guard let index = wholeNumber(word), index >= 0 else {
            throw CommandError(
                "\(command): \(MessageText.quoted(word)) is not a card (a card index, S:I or id:ID; usage: \(usage[command] ?? command))"
            )
        }
        return .index(index)
    }

    static func cardPlace(_ word: Substring, command: String) throws(CommandError) -> CardPlace {
        switch try cardAddress(word, command: command) {
        case .index(let index): return .index(index)
        case .sectionItem(let section, let item): return .sectionItem(section: section, item: item)
        case .id(let id): return .id(id)
        }
    }

    static func cardReference(_ word: Substring, command: String) throws(CommandError) -> CardReference {
        switch try cardAddress(word, command: command) {
        case .index(let index): return .index(index)
        case .sectionItem(let section, let item): return .sectionItem(section: section, item: item)
        case .id(let id): return .id(id)
        }
    }

    static func scrollTarget(_ word: Substring) throws(CommandError) -> ScrollTarget {
        switch word {
        case "start": return .start
        case "end": return .end
        default: break
        }
        if word.hasSuffix("%") {
            guard let percent = DecimalNumber.parse(word.dropLast()), percent.isFinite, (0...100).contains(percent)
            else {
                throw CommandError("scroll-to: \(MessageText.quoted(word)) is not a percentage from 0% to 100%")
            }
            return .percent(percent)
        }
        if word.hasPrefix("offset:") {
            guard let offset = DecimalNumber.parse(word.dropFirst("offset:".count)), offset.isFinite, offset >= 0 else {
                throw CommandError("scroll-to: \(MessageText.quoted(word)) is not a pixel offset (offset:PX, PX ≥ 0)")
            }
            return .offset(offset)
        }
        if word.hasPrefix("section:") {
            guard let section = wholeNumber(word.dropFirst("section:".count)), section >= 0 else {
                throw CommandError(
                    "scroll-to: \(MessageText.quoted(word)) is not a section (section:S, S a section index ≥ 0)")
            }
            return .section(section)
        }
        let isAddress = word.hasPrefix("id:") || word.contains(":") || word.first?.isNumber == true
        guard isAddress else {
            throw CommandError(
                "scroll-to: unknown target \(MessageText.quoted(word)) (use a card index, S:I, id:ID, section:S, start, end, P% or offset:PX)"
            )
        }
        switch try cardAddress(word, command: "scroll-to") {
        case .index(let index): return .card(index)
        case .sectionItem(let section, let item): return .sectionItem(section: section, item: item)
        case .id(let id): return .cardID(id)
        }
    }

    /// A whole number in any decimal form (`10`, `1e1`, `10.0`), as `play cards N` takes it: every
    /// slot that wants a whole number reads it alike. Nil for a fraction, hexadecimal, infinity, NaN
    /// or a value beyond 2^53, where a double no longer holds every whole number (a card index or a
    /// row count that large is out of range anyway).
    static func wholeNumber(_ word: Substring) -> Int? {
        if let value = Int(word) { return value }
        guard let value = DecimalNumber.parse(word), value == value.rounded(), value.magnitude <= 0x20_0000_0000_0000
        else { return nil }
        return Int(value)
    }

    static func scrollAmount(_ word: Substring) throws(CommandError) -> ScrollAmount {
        if word.hasSuffix("px") {
            guard let pixels = DecimalNumber.parse(word.dropLast(2)), pixels.isFinite, abs(pixels) <= 1e9 else {
                throw CommandError(
                    "scroll-by: \(MessageText.quoted(word)) is not a pixel distance from -1000000000px to 1000000000px (for example 120px or -80px)"
                )
            }
            return .pixels(pixels)
        }
        guard let rows = wholeNumber(word) else {
            throw CommandError(
                "scroll-by: \(MessageText.quoted(word)) is not a whole number of rows or a distance in px")
        }
        // `magnitude`, not `abs`: abs(Int.min) does not fit in an Int and traps.
        guard rows.magnitude <= maximumRows else {
            throw CommandError("scroll-by: \(rows) rows is out of range (-\(maximumRows) to \(maximumRows))")
        }
        return .rows(rows)
    }

    static func scrollOptions(_ words: ArraySlice<Substring>, command: String) throws(CommandError) -> ScrollOptions {
        var options = ScrollOptions()
        for word in words {
            if word.hasPrefix("duration=") {
                options.duration = try seconds(word.dropFirst("duration=".count), what: "\(command) duration")
            } else if word.hasPrefix("curve=") {
                let name = String(word.dropFirst("curve=".count))
                guard let curve = TimingCurve(name: name) else {
                    throw CommandError(
                        "\(command): unknown curve \(MessageText.quoted(name)) (use \(TimingCurve.choices))"
                    )
                }
                options.curve = curve
            } else {
                throw CommandError("\(command): unknown option \(MessageText.quoted(word)) (usage: \(usage[command]!))")
            }
        }
        return options
    }

    static func seconds(_ word: Substring, what: String) throws(CommandError) -> Double {
        guard let value = DecimalNumber.parse(word), value.isFinite, value >= 0, value <= maximumSeconds else {
            throw CommandError(
                "\(what): \(MessageText.quoted(word)) is not a number of seconds from 0 to \(Int(maximumSeconds))")
        }
        return value
    }
}
