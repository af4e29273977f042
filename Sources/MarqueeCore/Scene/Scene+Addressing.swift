/// Card edits addressed the way commands address cards (`CardReference`, `CardPlace`): every
/// card-addressing command takes a global index, `S:I` or `id:ID`, resolved here once.
extension Scene {
    /// Inserts `card` at `place` (`.index` may be the card count: the end of the last section).
    public mutating func insertCard(_ card: Card, at place: CardPlace, tag: Int? = nil) throws(DeckEditError) {
        switch place {
        case .index(let index): try insertCard(card, at: index, tag: tag)
        case .sectionItem(let section, let item): try insertCard(card, section: section, item: item, tag: tag)
        case .id(let id): try insertCard(card, at: try deck.globalIndex(of: .id(id)), tag: tag)
        }
    }

    public mutating func deleteCard(_ reference: CardReference, tag: Int? = nil) throws(DeckEditError) {
        try deleteCard(at: try deck.globalIndex(of: reference), tag: tag)
    }

    public mutating func updateCard(_ reference: CardReference, with card: Card, tag: Int? = nil)
        throws(DeckEditError)
    {
        try updateCard(at: try deck.globalIndex(of: reference), with: card, tag: tag)
    }

    public mutating func updateCard(_ reference: CardReference, with patch: CardPatch, tag: Int? = nil)
        throws(DeckEditError)
    {
        try updateCard(at: try deck.globalIndex(of: reference), with: patch, tag: tag)
    }

    /// Moves the card `reference` names to `place`: a global index it will have (0 to count − 1),
    /// item I of section S (I up to the section's count without the card: its end), or the index
    /// the card with that id has now.
    public mutating func moveCard(_ reference: CardReference, to place: CardPlace, tag: Int? = nil)
        throws(DeckEditError)
    {
        let source = try deck.globalIndex(of: reference)
        switch place {
        case .index(let destination): try moveCard(from: source, to: destination, tag: tag)
        case .sectionItem(let section, let item): try moveCard(from: source, toSection: section, item: item, tag: tag)
        case .id(let id): try moveCard(from: source, to: try deck.globalIndex(of: .id(id)), tag: tag)
        }
    }
}
