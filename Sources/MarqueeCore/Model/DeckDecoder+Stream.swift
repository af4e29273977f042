/// The deck's top level, read in one pass: the small parts (layout, style, keyframes, templates)
/// are read whole and checked as before, the cards one at a time as they come, so that decoding a
/// million-card deck never holds its file or a tree of it (docs/architecture.md, "Decoding decks
/// in one pass").
extension DeckDecoder {
    /// Decodes a deck read a chunk at a time from `source` (a deck file's descriptor).
    public static func decode(source: @escaping JSONReader.Source) throws(DeckError) -> Deck {
        let reader: JSONReader
        do {
            reader = try JSONReader(source: source, allowingByteOrderMark: true)
        } catch {
            throw DeckError(problems: [DeckProblem(path: "", message: "not valid JSON: \(error)")])
        }
        return try decode(reader: reader)
    }

    public static func decode(bytes: [UInt8]) throws(DeckError) -> Deck {
        let result: Result<Deck, DeckError> = bytes.withUnsafeBufferPointer { buffer in
            // Editors such as Notepad start UTF-8 files with a byte order mark; RFC 8259 lets a
            // parser ignore it, and a deck file is where one turns up.
            do throws(DeckError) {
                return .success(try decode(reader: JSONReader(bytes: buffer, allowingByteOrderMark: true)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes a deck already parsed (tests, and decks made in code): written out and read back,
    /// so that there is one decoder.
    public static func decode(_ json: JSONValue) throws(DeckError) -> Deck {
        var writer = JSONWriter()
        writer.value(json)
        return try decode(bytes: Array(writer.string.utf8))
    }

    private static func decode(reader: consuming JSONReader) throws(DeckError) -> Deck {
        var decoder = DeckDecoder()
        let deck: Deck
        do {
            deck = try decoder.deck(&reader)
        } catch {
            // Text that is not JSON is one problem: what was decoded before it means nothing.
            throw DeckError(problems: [DeckProblem(path: "", message: "not valid JSON: \(error)")])
        }
        if decoder.problemCount > 0 { throw decoder.error }
        return deck
    }

    private mutating func deck(_ reader: inout JSONReader) throws(JSONParseError) -> Deck {
        var deck = Deck()
        guard reader.peek() == UInt8(ascii: "{") else {
            let json = try reader.value()
            try reader.finish()
            _ = members(json, path: "", allowed: Self.deckFields)
            return deck
        }
        try reader.beginObject(depth: 1)
        var names: [String] = []
        var cards = CardChecks()
        var sawSections = false
        var overlays: JSONValue?
        while let key = try reader.nextMember(names: &names) {
            switch key {
            case "sections":
                sawSections = true
                try sections(&reader, into: &deck, checks: &cards)
            case "title": _ = string(try reader.value(depth: 1), path: "title")
            case "layout": deck.layout = layout(try reader.value(depth: 1), path: "layout")
            case "style": deck.style = style(try reader.value(depth: 1), path: "style")
            case "keyframes": deck.bindings = bindings(try reader.value(depth: 1), path: "keyframes")
            case "playback": deck.playback = playback(try reader.value(depth: 1), path: "playback")
            case "schedule": deck.schedule = schedule(try reader.value(depth: 1), path: "schedule")
            // Bands name templates, which may come later in the file: decoded at the end.
            case "overlays": overlays = try reader.value(depth: 1)
            case "templates":
                deck.templates = templates(try reader.value(depth: 1), path: "templates")
                cards.templatesKnown = true
            default:
                report(
                    Self.join("", key),
                    "unknown field (known fields: \(Self.deckFields.sorted().joined(separator: ", ")))")
                _ = try reader.value(depth: 1)
            }
        }
        try reader.finish()
        if let overlays { deck.overlays = self.overlays(overlays, path: "overlays", templates: deck.templates) }
        if !sawSections { report("sections", "missing (a deck needs a \"sections\" array, which may be empty)") }
        // Cards read before the templates named templates not yet known.
        for (name, use) in cards.templatesNamedEarly.sorted(by: { $0.value.order < $1.value.order })
        where deck.templates[name] == nil {
            report(
                use.path, Self.unknownTemplate(name, in: deck) + (use.count > 1 ? " (\(use.count) cards name it)" : ""))
        }
        return deck
    }

    /// What the card loop keeps to check ids and template names.
    private struct CardChecks {
        /// For each section decoded (in `deck.sections`), its index in the file, and the index in
        /// the file of each of its cards (cards with problems are left out): problems name them.
        var fileSection: [Int] = []
        var fileCard: [[Int32]] = []
        /// Hashes of the ids of the cards of earlier sections, made when a section follows one
        /// with cards: a duplicate across sections is looked for only when its hash is there.
        var earlierIDHashes: Set<Int>?
        var cardsDecoded = 0
        var firstSectionWithID: [String: Int] = [:]
        var templatesKnown = false
        /// Template names used by cards before the deck's `templates` came, with the first use.
        var templatesNamedEarly: [String: (path: String, count: Int, order: Int)] = [:]
    }

    private static func unknownTemplate(_ name: String, in deck: Deck) -> String {
        let known = (deck.templates.keys.sorted() + [CardTemplate.defaultName]).map { MessageText.quoted($0) }
            .joined(separator: ", ")
        return "no template is named \(MessageText.quoted(name)) (templates: \(known))"
    }

    private mutating func sections(
        _ reader: inout JSONReader, into deck: inout Deck, checks: inout CardChecks
    ) throws(JSONParseError) {
        guard reader.peek() == UInt8(ascii: "[") else {
            let found = try reader.value(depth: 1).typeName
            report("sections", "expected an array, found \(found)")
            return
        }
        try reader.beginArray(depth: 2)
        var sectionIndex = 0
        while try reader.nextElement(index: sectionIndex) {
            defer { sectionIndex += 1 }
            let sectionPath = "sections[\(sectionIndex)]"
            guard reader.peek() == UInt8(ascii: "{") else {
                _ = members(try reader.value(depth: 2), path: sectionPath, allowed: Self.sectionFields)
                continue
            }
            try reader.beginObject(depth: 3)
            var names: [String] = []
            var section = Section()
            var usable = true
            while let key = try reader.nextMember(names: &names) {
                switch key {
                case "title": section.title = string(try reader.value(depth: 3), path: sectionPath + ".title")
                case "id":
                    guard let id = string(try reader.value(depth: 3), path: sectionPath + ".id") else { break }
                    if id.isEmpty {
                        report(sectionPath + ".id", "a section id must not be empty")
                    } else if let first = checks.firstSectionWithID[id] {
                        report(
                            sectionPath + ".id",
                            "duplicate section id \(MessageText.quoted(id)) (first used at sections[\(first)])")
                    } else {
                        checks.firstSectionWithID[id] = sectionIndex
                        section.id = id
                    }
                case "cards":
                    guard reader.peek() == UInt8(ascii: "[") else {
                        let found = try reader.value(depth: 3).typeName
                        report(sectionPath + ".cards", "expected an array, found \(found)")
                        usable = false
                        break
                    }
                    try cards(&reader, into: &section, sectionIndex: sectionIndex, deck: deck, checks: &checks)
                default:
                    report(
                        sectionPath + "." + MessageText.clipped(key),
                        "unknown field (known fields: \(Self.sectionFields.sorted().joined(separator: ", ")))")
                    _ = try reader.value(depth: 3)
                }
            }
            if usable {
                deck.sections.append(section)
                checks.fileSection.append(sectionIndex)
                if checks.fileCard.count < deck.sections.count { checks.fileCard.append([]) }
            }
        }
    }

    private mutating func cards(
        _ reader: inout JSONReader, into section: inout Section, sectionIndex: Int, deck: Deck,
        checks: inout CardChecks
    ) throws(JSONParseError) {
        try reader.beginArray(depth: 4)
        if checks.earlierIDHashes == nil, checks.cardsDecoded > 0 {
            var hashes = Set<Int>(minimumCapacity: checks.cardsDecoded)
            for earlier in deck.sections {
                for position in 0..<earlier.cards.count { hashes.insert(earlier.cards.id(at: position).hashValue) }
            }
            checks.earlierIDHashes = hashes
        }
        var builder = CardList.Builder()
        var fileIndices: [Int32] = []
        var cardIndex = 0
        while try reader.nextElement(index: cardIndex) {
            defer { cardIndex += 1 }
            let path = { "sections[\(sectionIndex)].cards[\(cardIndex)]" }
            guard let card = try card(&reader, path: path) else { continue }
            if let name = card.template, name != CardTemplate.defaultName, deck.templates[name] == nil {
                if checks.templatesKnown {
                    report(path() + ".template", Self.unknownTemplate(name, in: deck))
                } else if let use = checks.templatesNamedEarly[name] {
                    checks.templatesNamedEarly[name] = (use.path, use.count + 1, use.order)
                } else {
                    checks.templatesNamedEarly[name] = (path() + ".template", 1, checks.templatesNamedEarly.count)
                }
            }
            var first: (section: Int, card: Int)?
            if let hashes = checks.earlierIDHashes, hashes.contains(card.id.hashValue) {
                first = firstUse(of: card.id, in: deck, checks)
            }
            if first == nil {
                if let position = builder.append(card) {
                    first = (sectionIndex, Int(fileIndices[position]))
                } else {
                    fileIndices.append(Int32(truncatingIfNeeded: cardIndex))
                    checks.earlierIDHashes?.insert(card.id.hashValue)
                }
            }
            if let first {
                report(
                    path() + ".id",
                    "duplicate id \(MessageText.quoted(card.id)) (first used at sections[\(first.section)].cards[\(first.card)])"
                )
            }
        }
        checks.cardsDecoded += builder.count
        section.cards = builder.build()
        checks.fileCard.append(fileIndices)
    }

    /// Where in the file an earlier section has a card with `id`, if one has.
    private func firstUse(of id: String, in deck: Deck, _ checks: CardChecks) -> (section: Int, card: Int)? {
        for (index, earlier) in deck.sections.enumerated() {
            if let position = earlier.cards.position(ofID: id) {
                return (checks.fileSection[index], Int(checks.fileCard[index][position]))
            }
        }
        return nil
    }

    /// One card, read member by member (no tree of it is made).
    private mutating func card(_ reader: inout JSONReader, path: () -> String) throws(JSONParseError) -> Card? {
        guard reader.peek() == UInt8(ascii: "{") else {
            _ = members(try reader.value(depth: 4), path: path(), allowed: Self.cardFields)
            return nil
        }
        try reader.beginObject(depth: 5)
        var card = Card(id: "")
        var hasID = false
        var usable = true
        var seen: UInt32 = 0
        var unknown: [String] = []
        while let key = try reader.nextMember(
            first: seen == 0 && unknown.isEmpty,
            isDuplicate: { key in
                if let bit = Self.cardFields.firstIndex(of: key) { return seen & 1 << bit != 0 }
                return unknown.contains(key)
            })
        {
            let value = try reader.value(depth: 5)
            if let bit = Self.cardFields.firstIndex(of: key) {
                seen |= 1 << bit
                if usable { usable = cardMember(key, value, into: &card, hasID: &hasID, path: path()) }
            } else {
                unknown.append(key)
                report(
                    Self.join(path(), key),
                    "unknown field (known fields: \(Self.cardFields.sorted().joined(separator: ", ")))")
            }
        }
        guard usable else { return nil }
        guard hasID else {
            report(path() + ".id", "missing (every card needs a unique id)")
            return nil
        }
        return card
    }
}
