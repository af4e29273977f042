/// Which card a command means (`delete`, `update`, and `move`'s FROM). Every card-addressing
/// command takes the same three forms.
public enum CardReference: Equatable, Sendable {
    /// A global index, counted across sections from 0.
    case index(Int)
    /// Section S, item I.
    case sectionItem(section: Int, item: Int)
    /// The card with this id.
    case id(String)
}

/// Where a card goes (`insert`'s place, `move`'s TO), in the same three forms.
public enum CardPlace: Equatable, Sendable {
    /// The global index the card will have (for `insert`, the card count appends to the last
    /// section).
    case index(Int)
    /// Section S, item I: the card becomes item I of section S. I may be the number of cards the
    /// section has besides the card itself: its end, which is how a card reaches the end of a
    /// section that another section follows.
    case sectionItem(section: Int, item: Int)
    /// The global index the card with this id has now: the new card takes its place and it moves
    /// over by one.
    case id(String)
}

extension Deck {
    /// The global index of the card `reference` names, or why there is none.
    public func globalIndex(of reference: CardReference) throws(DeckEditError) -> Int {
        switch reference {
        case .index(let index):
            guard index >= 0, index < cardCount else {
                throw DeckEditError(
                    "card index \(index) is out of range (the deck has \(MessageText.count(cardCount, "card")))")
            }
            return index
        case .sectionItem(let section, let item):
            guard section >= 0, section < sections.count else {
                throw DeckEditError(
                    "section \(section) is out of range (the deck has \(MessageText.count(sections.count, "section")))"
                )
            }
            guard let index = globalIndex(section: section, item: item) else {
                let count = sections[section].cards.count
                throw DeckEditError(
                    "item \(item) is out of range (section \(section) has \(MessageText.count(count, "card")))")
            }
            return index
        case .id(let id):
            guard let index = globalIndex(ofCardWithID: id) else {
                throw DeckEditError("no card has id \(MessageText.quoted(id))")
            }
            return index
        }
    }
}
