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

/// What a diff is carried out on: a deck (tests, `check-deck`) or the scene, which animates each
/// step. Steps come valid by construction; `sections` is read between them.
public protocol DeckDiffTarget {
    var sections: [Section] { get }
    mutating func perform(_ step: DeckDiffStep)
}

/// The difference between the cards and sections of two deck states, for `apply`, carried out
/// on the current state as it is found: deletes, then new sections, then the cards placed in
/// their final order (inserts, and moves of only the cards outside a longest increasing
/// subsequence of the ones that stay), then updates of changed content, then the sections that
/// are gone (empty by then). Cards are matched by `id` across the whole deck; sections by `id`,
/// then (those without one) by title, then by position.
///
/// Sections cannot move: of the matched sections, those in the heaviest increasing run (weighed
/// by the cards they keep) stay, and the others are deleted and inserted again at their new
/// place, their cards moving over.
///
/// Nothing is copied: the current state is edited in place, so applying k changes to an n-card
/// deck costs one pass over the new state plus O(k log n) in the target (a copy of a big deck
/// would cost more than the whole diff).
public struct DeckDiff: Equatable, Sendable {
    public var steps: [DeckDiffStep] = []
    public var inserted = 0
    public var deleted = 0
    public var moved = 0
    public var updated = 0
    public var sectionsInserted = 0
    public var sectionsDeleted = 0
    public var sectionsRetitled = 0

    public var isEmpty: Bool { steps.isEmpty }

    /// Where a section of the state being edited came from.
    private enum Slot: Equatable {
        case old(Int)
        case new(Int)
    }

    public init() {}

    /// Turns `target` into `new`'s cards and sections and returns what it did.
    @discardableResult
    public static func apply<Target: DeckDiffTarget>(_ new: Deck, to target: inout Target) -> DeckDiff {
        var diff = DeckDiff()
        diff.run(new.sections, on: &target)
        return diff
    }

    /// The steps from `old` to `new`, carried out on a copy of `old` (for tests and reports).
    public init(from old: Deck, to new: Deck) {
        var copy = old
        run(new.sections, on: &copy)
    }

    private mutating func perform<Target: DeckDiffTarget>(_ step: DeckDiffStep, on target: inout Target) {
        steps.append(step)
        target.perform(step)
    }

    private mutating func run<Target: DeckDiffTarget>(_ new: [Section], on target: inout Target) {
        // Everything that needs the old state is decided first, before it changes. Reads of
        // `target.sections` stay within one expression: a reference kept across an edit would
        // make the edit copy the section's cards.
        let oldCount = target.sections.count
        var newIDs = Set<String>(minimumCapacity: new.reduce(0) { $0 + $1.cards.count })
        for section in new { for card in section.cards { newIDs.insert(card.id) } }

        // Sections: matched ones in increasing old order stay, chosen to keep the most cards in
        // place (each weighs one more than the cards it keeps, so empty ones count too).
        let matches = Self.matchSections(old: target.sections, new: new)
        let matchedNew = new.indices.filter { matches[$0] != nil }
        let weights = matchedNew.map { j in
            1 + new[j].cards.reduce(0) { $0 + (target.sections[matches[j]!].cards.contains(id: $1.id) ? 1 : 0) }
        }
        var kept = [Int?](repeating: nil, count: new.count)
        for position in heaviestIncreasingSubsequence(matchedNew.map { matches[$0]! }, weights: weights) {
            kept[matchedNew[position]] = matches[matchedNew[position]]
        }
        let keptOld = Set(kept.compactMap { $0 })

        // Cards that keep their section and their order among the others stay.
        var candidates: [(id: String, oldIndex: Int)] = []
        var base = 0
        var bases: [Int] = []
        for k in 0..<oldCount {
            bases.append(base)
            base += target.sections[k].cards.count
        }
        for (j, section) in new.enumerated() {
            guard let k = kept[j] else { continue }
            for card in section.cards {
                if let item = target.sections[k].cards.position(ofID: card.id) {
                    candidates.append((card.id, bases[k] + item))
                }
            }
        }
        var staying = Set<String>()
        for position in longestIncreasingSubsequence(candidates.map(\.oldIndex)) {
            staying.insert(candidates[position].id)
        }

        // 1. Cards that are gone.
        var gone: [String] = []
        for k in 0..<oldCount {
            for card in target.sections[k].cards where !newIDs.contains(card.id) { gone.append(card.id) }
        }
        for id in gone {
            perform(.deleteCard(id: id), on: &target)
            deleted += 1
        }

        // 2. New sections, each right after the final section before it.
        var slots = (0..<oldCount).map { Slot.old($0) }
        var previousSlot: Int?
        for (j, section) in new.enumerated() {
            if let k = kept[j] {
                previousSlot = slots.firstIndex(of: .old(k))
                continue
            }
            let at = previousSlot.map { $0 + 1 } ?? 0
            // A section inserted again at a new place gets its id once the old one has left.
            let id = matches[j] == nil ? section.id : nil
            perform(.insertSection(Section(title: section.title, id: id), at: at), on: &target)
            sectionsInserted += 1
            slots.insert(.new(j), at: at)
            previousSlot = at
        }

        // 3. Every card to its final place, section by section: right after the final card before
        // it (the cards in between are ones still to move away).
        var changed: [Card] = []
        for (j, section) in new.enumerated() {
            let w = slots.firstIndex(of: kept[j].map { .old($0) } ?? .new(j))!
            var previous: String?
            for card in section.cards {
                defer { previous = card.id }
                if staying.contains(card.id) {
                    let item = target.sections[w].cards.position(ofID: card.id)!
                    if target.sections[w].cards[item] != card { changed.append(card) }
                    continue
                }
                let place = Self.locate(card.id, in: target.sections)
                if let (s, i) = place, target.sections[s].cards[i] != card { changed.append(card) }
                // The place right after `previous` once the card is out of the way.
                var item = previous.map { target.sections[w].cards.position(ofID: $0)! + 1 } ?? 0
                if let (s, i) = place, s == w, i < item { item -= 1 }
                if place != nil {
                    perform(.moveCard(id: card.id, section: w, item: item), on: &target)
                    moved += 1
                } else {
                    perform(.insertCard(card, section: w, item: item), on: &target)
                    inserted += 1
                }
            }
        }

        // 4. New content for cards that stayed or moved.
        for card in changed {
            perform(.updateCard(card), on: &target)
            updated += 1
        }

        // 5. The sections that are gone: every card of theirs was deleted or moved out.
        for index in slots.indices.reversed() {
            guard case .old(let k) = slots[index], !keptOld.contains(k) else { continue }
            perform(.deleteSection(at: index), on: &target)
            sectionsDeleted += 1
        }

        // 6. Titles and ids of the sections that stayed (and the ids of those inserted again).
        for (j, section) in new.enumerated() {
            guard target.sections[j].title != section.title || target.sections[j].id != section.id else { continue }
            perform(.retitleSection(at: j, title: section.title, id: section.id), on: &target)
            sectionsRetitled += 1
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

extension Deck: DeckDiffTarget {
    public mutating func perform(_ step: DeckDiffStep) {
        switch step {
        case .deleteCard(let id):
            let (s, i) = try! location(ofCard: globalIndex(ofCardWithID: id)!)
            removeCard(section: s, item: i)
        case .insertSection(let section, let at):
            sections.insert(section, at: at)
        case .insertCard(let card, let section, let item):
            sections[section].cards.insert(card, at: item)
        case .moveCard(let id, let section, let item):
            let (s, i) = try! location(ofCard: globalIndex(ofCardWithID: id)!)
            let card = removeCard(section: s, item: i)
            sections[section].cards.insert(card, at: item)
        case .updateCard(let card):
            let (s, i) = try! location(ofCard: globalIndex(ofCardWithID: card.id)!)
            sections[s].cards[i] = card
        case .deleteSection(let at):
            sections.remove(at: at)
        case .retitleSection(let at, let title, let id):
            sections[at].title = title
            sections[at].id = id
        }
    }
}
