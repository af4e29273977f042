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
        try decode(bytes: bytes, checkingTemplateNames: true)
    }

    /// `checkingTemplateNames: false` leaves cards free to name templates the document lacks
    /// (a section given alone, whose templates are the deck's it goes into).
    static func decode(bytes: [UInt8], checkingTemplateNames: Bool) throws(DeckError) -> Deck {
        try bytes.withUnsafeBufferPointer { buffer in
            decode(buffer: buffer, checkingTemplateNames: checkingTemplateNames)
        }.get()
    }

    /// Decodes a deck given as JSON text (`apply {...}`), reading the string's own UTF-8 bytes:
    /// a copy into an array first was 15.7 MB of new memory for a state of 100,000 cards.
    public static func decode(text: String) throws(DeckError) -> Deck {
        var text = text
        return try text.withUTF8 { buffer in decode(buffer: buffer) }.get()
    }

    /// The deck in `buffer`, as a result (the closures that lend the bytes cannot throw a typed
    /// error). Editors such as Notepad start UTF-8 files with a byte order mark; RFC 8259 lets a
    /// parser ignore it, and a deck file is where one turns up.
    private static func decode(
        buffer: UnsafeBufferPointer<UInt8>, checkingTemplateNames: Bool = true
    ) -> Result<Deck, DeckError> {
        do throws(DeckError) {
            return .success(
                try decode(
                    reader: JSONReader(bytes: buffer, allowingByteOrderMark: true),
                    checkingTemplateNames: checkingTemplateNames))
        } catch {
            return .failure(error)
        }
    }

    /// Decodes a deck already parsed (tests, and decks made in code): written out and read back,
    /// so that there is one decoder.
    public static func decode(_ json: JSONValue) throws(DeckError) -> Deck {
        var writer = JSONWriter()
        writer.value(json)
        return try decode(bytes: Array(writer.string.utf8))
    }

    private static func decode(reader: consuming JSONReader, checkingTemplateNames: Bool = true) throws(DeckError)
        -> Deck
    {
        var decoder = DeckDecoder()
        let deck: Deck
        do {
            deck = try decoder.deck(&reader, checkingTemplateNames: checkingTemplateNames)
        } catch {
            // Text that is not JSON is one problem: what was decoded before it means nothing.
            throw DeckError(problems: [DeckProblem(path: "", message: "not valid JSON: \(error)")])
        }
        if decoder.problemCount > 0 { throw decoder.error }
        return deck
    }

    private mutating func deck(_ reader: inout JSONReader, checkingTemplateNames: Bool) throws(JSONParseError) -> Deck {
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
        where checkingTemplateNames && deck.templates[name] == nil {
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
        /// Hashes (`IDTable.hash`) of the ids of the cards of earlier sections, made when a section
        /// follows one with cards: a duplicate across sections is looked for only when its hash is
        /// there.
        var earlierIDHashes: Set<UInt32>?
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
            var hashes = Set<UInt32>(minimumCapacity: checks.cardsDecoded)
            for earlier in deck.sections { earlier.cards.forEachID { _, id in hashes.insert(IDTable.hash(id)) } }
            checks.earlierIDHashes = hashes
        }
        var builder = CardList.Builder()
        var fileIndices: [Int32] = []
        var cardIndex = 0
        var scratch = CardScratch()
        while try reader.nextElement(index: cardIndex) {
            defer { cardIndex += 1 }
            // The index as a constant: a closure that captured the variable kept it in a heap
            // box, retained and released a few times for every card.
            let index = cardIndex
            let path = { "sections[\(sectionIndex)].cards[\(index)]" }
            guard try card(&reader, path: path, into: &scratch, builder: builder) else { continue }
            if scratch.hasOtherFields, let name = scratch.others.template, name != CardTemplate.defaultName,
                deck.templates[name] == nil
            {
                if checks.templatesKnown {
                    report(path() + ".template", Self.unknownTemplate(name, in: deck))
                } else if let use = checks.templatesNamedEarly[name] {
                    checks.templatesNamedEarly[name] = (use.path, use.count + 1, use.order)
                } else {
                    checks.templatesNamedEarly[name] = (path() + ".template", 1, checks.templatesNamedEarly.count)
                }
            }
            let idHash = scratch.idHash ?? scratch.id.withUnsafeBufferPointer { IDTable.hash($0) }
            var first: (section: Int, card: Int)?
            if let hashes = checks.earlierIDHashes, hashes.contains(idHash) {
                first = firstUse(of: scratch.idString, in: deck, checks)
            }
            if first == nil {
                if let position = scratch.append(to: &builder, idHash: idHash) {
                    first = (sectionIndex, Int(fileIndices[position]))
                } else {
                    fileIndices.append(Int32(truncatingIfNeeded: cardIndex))
                    checks.earlierIDHashes?.insert(idHash)
                }
            }
            if let first {
                report(
                    path() + ".id",
                    "duplicate id \(MessageText.quoted(scratch.idString)) (first used at sections[\(first.section)].cards[\(first.card)])"
                )
            }
        }
        checks.cardsDecoded += builder.count
        section.cards = builder.build()
        checks.fileCard.append(fileIndices)
    }

    /// The card being read: its id, title and body as UTF-8, copied from the reader's window
    /// (no `String` is made for them), and its other fields, rarely set, decoded as a `Card`'s
    /// are. Kept from card to card so that its buffers are allocated once.
    private struct CardScratch {
        var id: [UInt8] = []
        /// `IDTable.hash(id)`, when the id was read as a string.
        var idHash: UInt32?
        var title: [UInt8] = []
        var body: [UInt8] = []
        /// The card's other fields (its id, title and body are not set here).
        var others = Card(id: "")
        var hasOtherFields = false

        mutating func reset() {
            id.removeAll(keepingCapacity: true)
            idHash = nil
            title.removeAll(keepingCapacity: true)
            body.removeAll(keepingCapacity: true)
            if hasOtherFields {
                others = Card(id: "")
                hasOtherFields = false
            }
        }

        var idString: String { String(decoding: id, as: UTF8.self) }

        /// Stores the card in `builder`'s list; returns what `CardList.Builder.append` does.
        func append(to builder: inout CardList.Builder, idHash: UInt32) -> Int? {
            let extra = hasOtherFields ? CardCoding.extraBytes(others) : []
            return id.withUnsafeBufferPointer { id in
                title.withUnsafeBufferPointer { title in
                    body.withUnsafeBufferPointer { body in
                        extra.withUnsafeBufferPointer { extra in
                            builder.append(id: id, idHash: idHash, title: title, body: body, extra: extra)
                        }
                    }
                }
            }
        }
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

    /// One card, read member by member into `scratch` (no tree of it is made); returns whether it
    /// can be used. A string id, title or body is copied as bytes; other members are decoded as
    /// values and checked by `cardMember`, as a card given alone is.
    private mutating func card(
        _ reader: inout JSONReader, path: () -> String, into scratch: inout CardScratch,
        builder: borrowing CardList.Builder
    ) throws(JSONParseError) -> Bool {
        scratch.reset()
        guard reader.peek() == UInt8(ascii: "{") else {
            _ = members(try reader.value(depth: 4), path: path(), allowed: Self.cardFields)
            return false
        }
        try reader.beginObject(depth: 5)
        var hasID = false
        var usable = true
        var seen: UInt32 = 0
        var unknown: [String] = []
        while let key = try reader.nextMember(
            first: seen == 0 && unknown.isEmpty, name: Self.cardMemberName,
            isDuplicate: { key in
                if let unknownName = key.unknown { return unknown.contains(unknownName) }
                return seen & 1 << key.field != 0
            })
        {
            if let name = key.unknown {
                _ = try reader.value(depth: 5)
                unknown.append(name)
                report(
                    Self.join(path(), name),
                    "unknown field (known fields: \(Self.cardFields.sorted().joined(separator: ", ")))")
                continue
            }
            let bit = key.field
            let key = Self.cardFields[bit]
            seen |= 1 << bit
            // `cardFields` starts with "id", "title" and "body".
            if bit < 3, reader.peek() == UInt8(ascii: "\"") {
                try reader.withStringBytes { bytes in
                    switch bit {
                    case 0: scratch.id.append(contentsOf: bytes)
                    case 1: scratch.title.append(contentsOf: bytes)
                    default: scratch.body.append(contentsOf: bytes)
                    }
                }
                if bit == 0, usable {
                    if scratch.id.isEmpty {
                        report(path() + ".id", "must not be empty")
                        usable = false
                    } else {
                        hasID = true
                        // The id's lookup comes after the card's other members: its memory is
                        // asked for now.
                        let hash = scratch.id.withUnsafeBufferPointer { IDTable.hash($0) }
                        scratch.idHash = hash
                        builder.prefetch(idHash: hash)
                    }
                }
                continue
            }
            let value = try reader.value(depth: 5)
            if bit >= 3 { scratch.hasOtherFields = true }
            if usable { usable = cardMember(key, value, into: &scratch.others, hasID: &hasID, path: path()) }
        }
        guard usable else { return false }
        guard hasID else {
            report(path() + ".id", "missing (every card needs a unique id)")
            return false
        }
        return true
    }

    /// A card member's name: its index in `cardFields`, or the name itself when it is not one
    /// (made as a `String` only then).
    private static func cardMemberName(_ bytes: UnsafeBufferPointer<UInt8>) -> (field: Int, unknown: String?) {
        // "id", "title" and "body" (what nearly every card has) compared as words: going through
        // `cardFieldBytes` retained and released each name's array.
        switch bytes.count {
        case 2 where bytes[0] == UInt8(ascii: "i") && bytes[1] == UInt8(ascii: "d"): return (0, nil)
        case 4 where UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt32.self) == Self.bodyWord:
            return (2, nil)
        case 5
        where UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt32.self) == Self.titleWord
            && bytes[4] == UInt8(ascii: "e"):
            return (1, nil)
        default: break
        }
        for (index, name) in cardFieldBytes.enumerated()
        where name.count == bytes.count && name.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) {
            return (index, nil)
        }
        return (-1, String(decoding: bytes, as: UTF8.self))
    }

    private static let cardFieldBytes = cardFields.map { Array($0.utf8) }
    /// "body" and "titl" as little-endian words (what `loadUnaligned` reads on the targets).
    private static let bodyWord = UInt32(littleEndian: 0x7964_6F62)
    private static let titleWord = UInt32(littleEndian: 0x6C74_6974)
}
