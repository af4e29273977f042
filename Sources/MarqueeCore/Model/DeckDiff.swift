/// One step of the way from one deck state to another, in the terms of the scene's edits: each
/// address is valid in the deck as the steps before it left it.
public enum DeckDiffStep: Equatable, Sendable {
    case deleteCard(id: String)
    /// An empty section (its title and id); its cards follow as inserts and moves.
    case insertSection(Section, at: Int)
    case insertCard(Card, section: Int, item: Int)
    /// `item` counts the section's cards without the moved one, as `move`'s `S:I` does.
    case moveCard(id: String, section: Int, item: Int)
    /// The card with this id gets this content.
    case updateCard(Card)
    /// An empty section leaves.
    case deleteSection(at: Int)
    /// A section that stays gets a new title (or id).
    case retitleSection(at: Int, title: String?, id: String?)
}

/// The difference between the cards and sections of two deck states, for `apply`: deletes, then
/// new sections, then the cards placed in their final order (inserts, and moves of only the cards
/// outside a longest increasing subsequence of the ones that stay), then updates of changed
/// content, then the sections that are gone (empty by then). Cards are matched by `id` across the
/// whole deck; sections by `id`, then (those without one) by title, then by position.
///
/// Sections cannot move: a matched section outside the longest increasing run of matched ones is
/// deleted and inserted again at its new place, its cards moving over.
public struct DeckDiff: Equatable, Sendable {
    public var steps: [DeckDiffStep] = []
    public var inserted = 0
    public var deleted = 0
    public var moved = 0
    public var updated = 0
    public var sectionsInserted = 0
    public var sectionsDeleted = 0

    public var isEmpty: Bool { steps.isEmpty }

    /// Where a section of the deck being edited came from.
    private enum Slot: Equatable {
        case old(Int)
        case new(Int)
    }

    public init(from old: Deck, to new: Deck) {
        var work = old.sections
        var newIDs = Set<String>(minimumCapacity: new.cardCount)
        for section in new.sections { for card in section.cards { newIDs.insert(card.id) } }

        // 1. Cards that are gone.
        for section in old.sections {
            for card in section.cards where !newIDs.contains(card.id) {
                steps.append(.deleteCard(id: card.id))
                deleted += 1
                if let (s, i) = Self.locate(card.id, in: work) { work[s].cards.remove(at: i) }
            }
        }

        // 2. Sections: matched ones in increasing old order stay, chosen to keep the most cards
        // in place (each weighs one more than the cards it keeps, so empty ones count too); the
        // others are new.
        let matches = Self.matchSections(old: old.sections, new: new.sections)
        let matchedNew = new.sections.indices.filter { matches[$0] != nil }
        let weights = matchedNew.map { j in
            1 + new.sections[j].cards.reduce(0) { $0 + (old.sections[matches[j]!].cards.contains(id: $1.id) ? 1 : 0) }
        }
        var kept = [Int?](repeating: nil, count: new.sections.count)
        for position in heaviestIncreasingSubsequence(matchedNew.map { matches[$0]! }, weights: weights) {
            kept[matchedNew[position]] = matches[matchedNew[position]]
        }
        var slots = old.sections.indices.map { Slot.old($0) }
        var previousSlot: Int?
        for (j, section) in new.sections.enumerated() {
            if let k = kept[j] {
                previousSlot = slots.firstIndex(of: .old(k))
                continue
            }
            let at = previousSlot.map { $0 + 1 } ?? 0
            let empty = Section(title: section.title, id: section.id)
            steps.append(.insertSection(empty, at: at))
            sectionsInserted += 1
            work.insert(empty, at: at)
            slots.insert(.new(j), at: at)
            previousSlot = at
        }

        // 3. Cards that keep their section and their order among the others stay.
        var candidates: [(id: String, oldIndex: Int)] = []
        for (j, section) in new.sections.enumerated() {
            guard let k = kept[j] else { continue }
            let base = old.firstCardIndex(ofSection: k)
            for card in section.cards {
                if let item = old.sections[k].cards.position(ofID: card.id) {
                    candidates.append((card.id, base + item))
                }
            }
        }
        var staying = Set<String>()
        for position in longestIncreasingSubsequence(candidates.map(\.oldIndex)) {
            staying.insert(candidates[position].id)
        }

        // 4. Every card to its final place, section by section: right after the final card before
        // it (the cards in between are ones still to move away).
        var changed: [Card] = []
        for (j, section) in new.sections.enumerated() {
            let w = slots.firstIndex(of: kept[j].map { .old($0) } ?? .new(j))!
            var previous: String?
            for card in section.cards {
                defer { previous = card.id }
                if staying.contains(card.id) {
                    if work[w].cards[work[w].cards.position(ofID: card.id)!] != card { changed.append(card) }
                    continue
                }
                if let (s, i) = Self.locate(card.id, in: work) {
                    let current = work[s].cards.remove(at: i)
                    let item = previous.map { work[w].cards.position(ofID: $0)! + 1 } ?? 0
                    work[w].cards.insert(current, at: item)
                    steps.append(.moveCard(id: card.id, section: w, item: item))
                    moved += 1
                    if current != card { changed.append(card) }
                } else {
                    let item = previous.map { work[w].cards.position(ofID: $0)! + 1 } ?? 0
                    work[w].cards.insert(card, at: item)
                    steps.append(.insertCard(card, section: w, item: item))
                    inserted += 1
                }
            }
        }

        // 5. New content for cards that stay or moved.
        for card in changed {
            steps.append(.updateCard(card))
            updated += 1
        }

        // 6. The sections that are gone: every card of theirs was deleted or moved out.
        for index in slots.indices.reversed() {
            guard case .old(let k) = slots[index], !kept.contains(k) else { continue }
            steps.append(.deleteSection(at: index))
            sectionsDeleted += 1
        }

        // 7. Titles and ids of the sections that stayed.
        for (j, section) in new.sections.enumerated() {
            guard let k = kept[j], old.sections[k].title != section.title || old.sections[k].id != section.id else {
                continue
            }
            steps.append(.retitleSection(at: j, title: section.title, id: section.id))
        }
    }

    /// The section and item of the card with this id.
    private static func locate(_ id: String, in sections: [Section]) -> (Int, Int)? {
        for (s, section) in sections.enumerated() {
            if let item = section.cards.position(ofID: id) { return (s, item) }
        }
        return nil
    }

    /// For each new section, the old section it continues, if any: by id; then, among sections
    /// without an id, by title (the first unmatched one of that title), then by position.
    private static func matchSections(old: [Section], new: [Section]) -> [Int?] {
        var result = [Int?](repeating: nil, count: new.count)
        var taken = [Bool](repeating: false, count: old.count)
        var oldByID: [String: Int] = [:]
        for (k, section) in old.enumerated() {
            if let id = section.id, oldByID[id] == nil { oldByID[id] = k }
        }
        for (j, section) in new.enumerated() {
            guard let id = section.id, let k = oldByID[id], !taken[k] else { continue }
            result[j] = k
            taken[k] = true
        }
        for (j, section) in new.enumerated() where section.id == nil {
            if let k = old.indices.first(where: { !taken[$0] && old[$0].id == nil && old[$0].title == section.title }) {
                result[j] = k
                taken[k] = true
            }
        }
        for (j, section) in new.enumerated() where section.id == nil && result[j] == nil {
            if j < old.count, !taken[j], old[j].id == nil {
                result[j] = j
                taken[j] = true
            }
        }
        return result
    }
}
