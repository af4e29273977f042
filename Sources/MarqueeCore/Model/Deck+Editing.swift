/// Why an edit of the deck cannot be made; nothing was changed.
public struct DeckEditError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Card edits (SPEC §5). Each checks everything first and changes nothing when it throws.
/// Each is O(sections + log n): cards live in `CardList`s, which find a position or an id in
/// O(log n), and the layout side is O(log n) too (`CollectionLayout`).
extension Deck {
    /// Where a card inserted at global index `index` goes: before the card now at that index, or
    /// at the end of the last section when `index` is the card count.
    public func insertionPoint(forGlobalIndex index: Int) throws(DeckEditError) -> (section: Int, item: Int) {
        guard !sections.isEmpty else { throw DeckEditError("the deck has no sections to insert a card into") }
        guard index >= 0, index <= cardCount else {
            throw DeckEditError("index \(index) is out of range (0 to \(cardCount))")
        }
        if index == cardCount { return (sections.count - 1, sections[sections.count - 1].cards.count) }
        return try location(ofCard: index)
    }

    /// Section and item of the card at global index `index`.
    public func location(ofCard index: Int) throws(DeckEditError) -> (section: Int, item: Int) {
        guard index >= 0, index < cardCount else {
            throw DeckEditError(
                "card index \(index) is out of range (the deck has \(MessageText.count(cardCount, "card")))")
        }
        var remaining = index
        for (sectionIndex, section) in sections.enumerated() {
            if remaining < section.cards.count { return (sectionIndex, remaining) }
            remaining -= section.cards.count
        }
        preconditionFailure("Deck.location(ofCard:): index \(index) not found below cardCount")
    }

    public mutating func insert(_ card: Card, section: Int, item: Int) throws(DeckEditError) {
        guard sections.indices.contains(section), (0...sections[section].cards.count).contains(item) else {
            throw DeckEditError("there is no place \(section):\(item) to insert at")
        }
        try checkTemplate(of: card)
        if containsCard(withID: card.id) {
            throw DeckEditError("a card with id \(MessageText.quoted(card.id)) already exists")
        }
        sections[section].cards.insert(card, at: item)
    }

    @discardableResult
    public mutating func removeCard(section: Int, item: Int) -> Card {
        sections[section].cards.remove(at: item)
    }

    /// Replaces a card's content. The new card keeps the old id (an `id` in the new content must
    /// match it).
    public mutating func update(section: Int, item: Int, with card: Card) throws(DeckEditError) {
        let old = sections[section].cards[item]
        guard card.id.isEmpty || card.id == old.id else {
            // No "update" here: the session puts the command's name in front of every edit error.
            throw DeckEditError(
                "cannot change a card's id (\(MessageText.quoted(old.id)) to \(MessageText.quoted(card.id)))")
        }
        try checkTemplate(of: card)
        var replacement = card
        replacement.id = old.id
        sections[section].cards[item] = replacement
    }

    /// Inserts a section so that it becomes section `index` (0...count).
    public mutating func insertSection(_ section: Section, at index: Int) throws(DeckEditError) {
        guard index >= 0, index <= sections.count else {
            throw DeckEditError("section index \(index) is out of range (0 to \(sections.count))")
        }
        if let id = section.id, sections.contains(where: { $0.id == id }) {
            throw DeckEditError("a section with id \(MessageText.quoted(id)) already exists")
        }
        var seen = Set<String>()
        for card in section.cards {
            guard seen.insert(card.id).inserted else {
                throw DeckEditError("the section has id \(MessageText.quoted(card.id)) twice")
            }
        }
        for card in section.cards { try checkTemplate(of: card) }
        for card in section.cards where containsCard(withID: card.id) {
            throw DeckEditError("a card with id \(MessageText.quoted(card.id)) already exists")
        }
        sections.insert(section, at: index)
    }

    @discardableResult
    public mutating func removeSection(at index: Int) throws(DeckEditError) -> Section {
        guard index >= 0, index < sections.count else {
            throw DeckEditError(
                "section index \(index) is out of range (the deck has \(MessageText.count(sections.count, "section")))")
        }
        return sections.remove(at: index)
    }

    /// Refuses a card that names a template the deck does not define.
    public func checkTemplate(of card: Card) throws(DeckEditError) {
        guard let name = card.template, name != CardTemplate.defaultName, templates[name] == nil else { return }
        let known = (templates.keys.sorted() + [CardTemplate.defaultName]).map { MessageText.quoted($0) }
        throw DeckEditError(
            "card \(MessageText.quoted(card.id)) names template \(MessageText.quoted(name)), which the deck does not define (templates: \(known.joined(separator: ", ")))"
        )
    }
}
