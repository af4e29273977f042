/// Turns deck JSON into a `Deck`, checking every field and collecting every problem with its
/// JSON path, so that `marquee check-deck` can report all of them at once.
public struct DeckDecoder {
    /// Limits that keep a hostile deck from costing unbounded memory or time later on.
    public static let maximumCardHeight: Double = 100_000
    public static let maximumColumns = 64
    /// Problems kept with their text; a deck with a million duplicate ids has a million problems,
    /// and their text would take more memory than the deck (the rest are only counted).
    public static let maximumKeptProblems = 100

    private var problems: [DeckProblem] = []
    private var uncounted = 0
    private var failed: Bool { !problems.isEmpty }
    var problemCount: Int { problems.count + uncounted }
    var error: DeckError { DeckError(problems: problems, uncounted: uncounted) }

    public static func decode(_ text: String) throws(DeckError) -> Deck {
        try decode(bytes: Array(text.utf8))
    }

    /// Decodes one card given on its own (protocol commands carry card JSON). With
    /// `requireID: false` (for `update`) the id may be left out; the card then has an empty id.
    public static func decodeCard(_ json: JSONValue, path: String, requireID: Bool) throws(DeckError) -> Card {
        var decoder = DeckDecoder()
        let card = decoder.card(json, path: path, requireID: requireID)
        if decoder.failed { throw decoder.error }
        guard let card else { throw DeckError(problems: [DeckProblem(path: path, message: "not a card")]) }
        return card
    }

    /// Decodes what `update` gives: the keys present, checked as a card's are.
    public static func decodeCardPatch(_ json: JSONValue, path: String) throws(DeckError) -> CardPatch {
        var decoder = DeckDecoder()
        let card = decoder.card(json, path: path, requireID: false)
        if decoder.failed { throw decoder.error }
        guard let card, case .object(let members) = json else {
            throw DeckError(problems: [DeckProblem(path: path, message: "not a card")])
        }
        var patch = CardPatch()
        for (key, _) in members {
            switch key {
            case "id": patch.id = card.id
            case "title": patch.title = card.title
            case "body": patch.body = card.body
            case "color": patch.color = card.color
            case "accent": patch.accent = card.accent
            case "height": patch.height = card.height
            case "direction": patch.direction = card.direction
            case "template": patch.template = card.template
            case "fields": patch.fields = card.fields
            case "expires": patch.expires = card.expires
            default: break
            }
        }
        return patch
    }

    /// Decodes one section given on its own (`insert-section`): `{"title": ..., "cards": [...]}`.
    /// Its cards' template names are not checked here: the section carries no templates, and the
    /// deck it goes into checks them when it is inserted (`Deck.insertSection`), as `insert` does.
    public static func decodeSection(_ json: JSONValue, path: String) throws(DeckError) -> Section {
        let deck: Deck
        do {
            var writer = JSONWriter()
            writer.value(.object([(key: "sections", value: .array([json]))]))
            deck = try decode(bytes: Array(writer.string.utf8), checkingTemplateNames: false)
        } catch {
            let problems = error.problems.map { problem in
                DeckProblem(path: path + problem.path.dropFirst("sections[0]".count), message: problem.message)
            }
            throw DeckError(problems: problems, uncounted: error.uncounted)
        }
        guard let section = deck.sections.first else {
            throw DeckError(problems: [DeckProblem(path: path, message: "not a section")])
        }
        return section
    }

    mutating func report(_ path: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        guard problems.count < Self.maximumKeptProblems else {
            uncounted += 1
            return
        }
        problems.append(DeckProblem(path: path(), message: message()))
    }

    /// A member's path. Member names come from the file, so a name is cut like a quoted value.
    static func join(_ path: String, _ key: String) -> String {
        let name = MessageText.clipped(key)
        return path.isEmpty ? name : "\(path).\(name)"
    }

    /// The members of an object, reporting unknown names (they are usually typos). `allowed` is a
    /// short list: comparing a few short strings is cheaper than hashing for every card.
    mutating func members(_ json: JSONValue, path: @autoclosure () -> String, allowed: [String])
        -> [(key: String, value: JSONValue)]?
    {
        guard case .object(let members) = json else {
            let path = path()
            report(path.isEmpty ? "(document)" : path, "expected an object, found \(json.typeName)")
            return nil
        }
        for member in members where !allowed.contains(member.key) {
            report(
                Self.join(path(), member.key),
                "unknown field (known fields: \(allowed.sorted().joined(separator: ", ")))")
        }
        return members
    }

    static let deckFields = [
        "sections", "layout", "style", "keyframes", "title", "templates", "playback", "overlays", "schedule",
    ]
    static let sectionFields = ["title", "id", "cards"]
    static let cardFields = [
        "id", "title", "body", "color", "accent", "height", "direction", "template", "fields", "expires",
    ]
    private static let layoutFields = ["type", "columns", "insets", "spacing", "cardHeight", "headerHeight"]
    private static let insetFields = ["top", "left", "bottom", "right"]
    private static let styleFields = [
        "background", "cardColor", "cardAlpha", "cornerRadius", "textColor", "headerColor", "titleFont",
        "bodyFont", "headerFont", "titleSize", "bodySize", "headerSize", "padding", "accentWidth", "transitionDuration",
        "staleAlpha",
        "direction", "align",
    ]

    /// The value of member `key`, if present.
    static func value(_ members: [(key: String, value: JSONValue)], _ key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    mutating func card(_ json: JSONValue, path: @autoclosure () -> String, requireID: Bool = true) -> Card? {
        guard let fields = members(json, path: path(), allowed: Self.cardFields) else { return nil }
        var card = Card(id: "")
        var hasID = false
        for (key, value) in fields {
            guard cardMember(key, value, into: &card, hasID: &hasID, path: path()) else { return nil }
        }
        guard hasID || !requireID else {
            report(path() + ".id", "missing (every card needs a unique id)")
            return nil
        }
        return card
    }

    /// Checks and sets one member of a card (unknown names are ignored here: the caller reports
    /// them). Returns false when the card cannot be used; its other members are then not checked.
    mutating func cardMember(
        _ key: String, _ value: JSONValue, into card: inout Card, hasID: inout Bool, path: @autoclosure () -> String
    ) -> Bool {
        switch key {
        case "id":
            guard let id = string(value, path: path() + ".id") else { return false }
            if id.isEmpty {
                report(path() + ".id", "must not be empty")
                return false
            }
            card.id = id
            hasID = true
        case "title": card.title = string(value, path: path() + ".title") ?? ""
        case "body": card.body = string(value, path: path() + ".body") ?? ""
        case "color": card.color = color(value, path: path() + ".color")
        case "accent": card.accent = color(value, path: path() + ".accent")
        case "height": card.height = number(value, path: path() + ".height", in: 1...Self.maximumCardHeight)
        case "direction": card.direction = choice(value, path: path() + ".direction", of: TextDirection.self)
        case "template":
            guard let name = string(value, path: path() + ".template") else { break }
            if name.isEmpty { report(path() + ".template", "must name a template") } else { card.template = name }
        case "fields": card.fields = self.fields(value, path: path() + ".fields")
        case "expires":
            guard let text = string(value, path: path() + ".expires") else { break }
            if let time = Timestamp.parse(text) {
                card.expires = time
            } else {
                report(
                    path() + ".expires",
                    "\(MessageText.quoted(text)) is not an RFC 3339 date and time (such as 2026-11-23T18:30:00Z or 2026-11-23T19:30:00+01:00)"
                )
            }
        default: break
        }
        return true
    }

    mutating func layout(_ json: JSONValue, path: String) -> LayoutConfiguration {
        var layout = LayoutConfiguration()
        guard let members = members(json, path: path, allowed: Self.layoutFields) else { return layout }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        if let typeJSON = fields["type"], let type = string(typeJSON, path: path + ".type") {
            if let kind = LayoutKind(rawValue: type) {
                layout.kind = kind
                if kind == .grid { layout.columns = 2 }
            } else {
                report(path + ".type", "unknown layout \(MessageText.quoted(type)) (use \"list\" or \"grid\")")
            }
        }
        if let columnsJSON = fields["columns"],
            let columns = number(columnsJSON, path: path + ".columns", in: 1...Double(Self.maximumColumns))
        {
            if columns != columns.rounded() {
                report(path + ".columns", "must be a whole number")
            } else if layout.kind == .list && columns != 1 {
                report(path + ".columns", "a list has one column (use \"type\": \"grid\")")
            } else {
                layout.columns = Int(columns)
            }
        }
        if let insets = fields["insets"] { layout.insets = self.insets(insets, path: path + ".insets") }
        if let spacing = fields["spacing"] {
            layout.spacing = number(spacing, path: path + ".spacing", in: 0...10_000) ?? layout.spacing
        }
        if let height = fields["cardHeight"] {
            layout.cardHeight =
                number(height, path: path + ".cardHeight", in: 1...Self.maximumCardHeight)
                ?? layout.cardHeight
        }
        if let height = fields["headerHeight"] {
            layout.headerHeight = number(height, path: path + ".headerHeight", in: 0...10_000) ?? layout.headerHeight
        }
        return layout
    }

    private mutating func insets(_ json: JSONValue, path: String) -> EdgeInsets {
        let fallback = LayoutConfiguration().insets
        if case .number = json {
            return EdgeInsets(all: number(json, path: path, in: 0...10_000) ?? fallback.top)
        }
        guard let members = members(json, path: path, allowed: Self.insetFields) else { return fallback }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        func side(_ name: String, _ value: Double) -> Double {
            guard let json = fields[name] else { return value }
            return number(json, path: "\(path).\(name)", in: 0...10_000) ?? value
        }
        return EdgeInsets(
            top: side("top", fallback.top), left: side("left", fallback.left),
            bottom: side("bottom", fallback.bottom), right: side("right", fallback.right))
    }

    mutating func style(_ json: JSONValue, path: String) -> Style {
        var style = Style()
        guard let members = members(json, path: path, allowed: Self.styleFields) else { return style }
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        func colorField(_ name: String, _ keyPath: WritableKeyPath<Style, Color>) {
            if let json = fields[name], let color = color(json, path: "\(path).\(name)") {
                style[keyPath: keyPath] = color
            }
        }
        func numberField(_ name: String, _ keyPath: WritableKeyPath<Style, Double>, _ range: ClosedRange<Double>) {
            if let json = fields[name], let value = number(json, path: "\(path).\(name)", in: range) {
                style[keyPath: keyPath] = value
            }
        }
        func fontField(_ name: String, _ keyPath: WritableKeyPath<Style, String>) {
            guard let json = fields[name], let font = string(json, path: "\(path).\(name)") else { return }
            if font.isEmpty { report("\(path).\(name)", "must name a font") } else { style[keyPath: keyPath] = font }
        }
        colorField("background", \.background)
        colorField("cardColor", \.cardColor)
        colorField("textColor", \.textColor)
        colorField("headerColor", \.headerColor)
        numberField("cardAlpha", \.cardAlpha, 0...1)
        numberField("cornerRadius", \.cornerRadius, 0...1_000)
        numberField("titleSize", \.titleSize, 1...500)
        numberField("bodySize", \.bodySize, 1...500)
        numberField("headerSize", \.headerSize, 1...500)
        numberField("padding", \.padding, 0...1_000)
        numberField("accentWidth", \.accentWidth, 0...1_000)
        numberField("transitionDuration", \.transitionDuration, 0...10)
        numberField("staleAlpha", \.staleAlpha, 0...1)
        fontField("titleFont", \.titleFont)
        fontField("bodyFont", \.bodyFont)
        fontField("headerFont", \.headerFont)
        if let json = fields["direction"], let value = choice(json, path: "\(path).direction", of: TextDirection.self) {
            style.direction = value
        }
        if let json = fields["align"], let value = choice(json, path: "\(path).align", of: TextAlign.self) {
            style.align = value
        }
        return style
    }

    /// One of an enumeration's names ("auto", "ltr", "rtl"), or a problem listing them.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ json: JSONValue, path: @autoclosure () -> String, of: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(json, path: path()) else { return nil }
        guard let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            report(path(), "\"\(text)\" is not one of \(names)")
            return nil
        }
        return value
    }

    mutating func string(_ json: JSONValue, path: @autoclosure () -> String) -> String? {
        guard case .string(let value) = json else {
            report(path(), "expected a string, found \(json.typeName)")
            return nil
        }
        return value
    }

    mutating func number(_ json: JSONValue, path: @autoclosure () -> String, in range: ClosedRange<Double>)
        -> Double?
    {
        guard case .number(let number) = json else {
            report(path(), "expected a number, found \(json.typeName)")
            return nil
        }
        let value = number.value
        guard range.contains(value) else {
            report(
                path(),
                "\(Self.format(value)) is out of range (\(Self.format(range.lowerBound))...\(Self.format(range.upperBound)))"
            )
            return nil
        }
        return value
    }

    mutating func color(_ json: JSONValue, path: @autoclosure () -> String) -> Color? {
        guard let text = string(json, path: path()) else { return nil }
        guard let color = Color(hex: text) else {
            report(path(), "\(MessageText.quoted(text)) is not a color (use #rgb, #rrggbb or #rrggbbaa)")
            return nil
        }
        return color
    }

    /// Why commands cannot name a card by its id, or nil. Commands name a card as the word `id:ID`
    /// in a line (words end at a space or a tab, lines at a line feed, and a carriage return
    /// before it is dropped), so an id holding one of those is shown but never named: `update
    /// id:gate 4 {...}` reads `gate` as the id. Such a deck still runs (a feed that sends whole
    /// states with `apply` never names cards); `check-deck` warns.
    public static func idProblem(_ id: UnsafeBufferPointer<UInt8>) -> String? {
        guard id.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return nil }
        return "has a space, a tab or a line break: commands cannot name the card (id:ID is one word)"
    }

    static func format(_ value: Double) -> String { JSONNumber.format(value) }
}
