import CPrefetch

/// One step of the way from one deck state to another, in the terms of the scene's edits. Cards
/// are placed after another card (by id), so a step holds whatever the steps before it did.
public enum DeckDiffStep: Equatable, Sendable {
    case deleteCard(id: String)
    /// An empty section (its title and id); its cards follow as inserts and moves.
    case insertSection(Section, at: Int)
    /// Into section `section`, right after the card `after` (nil: at the section's start).
    case insertCard(Card, section: Int, after: String?)
    /// To section `section`, right after the card `after` (nil: at the section's start).
    case moveCard(id: String, section: Int, after: String?)
    /// The card with this id gets this content.
    case updateCard(Card)
    /// An empty section leaves.
    case deleteSection(at: Int)
    /// A section gets a new title or id.
    case retitleSection(at: Int, title: String?, id: String?)
}

/// What a diff's steps are carried out on: a deck (tests, reports) or the scene, which animates
/// each step.
public protocol DeckDiffTarget {
    mutating func perform(_ step: DeckDiffStep)
}

/// The difference between the cards and sections of two deck states, for `apply`: deletes, then
/// new sections, then updates of changed content, then the cards placed in their final order
/// (inserts, and moves of only the cards outside a longest increasing subsequence of the ones that
/// stay), then the sections that are gone (empty by then), then new titles and ids. Cards are
/// matched by `id` across the whole deck; sections by `id`, then (those without one) by title,
/// then by position.
///
/// Sections cannot move: of the matched sections, those in the heaviest increasing run (weighed
/// by the cards they keep) stay, and the others are deleted and inserted again at their new
/// place, their cards moving over.
///
/// Finding the difference only reads the two states: one pass over each, with a map of the old
/// cards' places, and no copy of either. Each card is placed after the final card before it,
/// named by id, so the steps need no positions worked out along the way; the target finds each
/// place (O(log n) in a deck) when it carries the step out. That is what lets a loader thread
/// find the difference of a big deck and the frame path replay only the k steps.
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

    /// The steps from `old` to `new`. Cards are compared as their stored bytes and named by their
    /// places in the two decks' trees: a `Card` is made only for a step that carries one (a
    /// difference of 10 cards in 100,000 makes about 10).
    public init(from old: Deck, to new: Deck) {
        let oldSections = old.sections
        let newSections = new.sections
        // The lists, taken out once: reaching a list through its section in the loops below would
        // copy the section (and retain its arrays) for every card.
        let oldLists = oldSections.map(\.cards)
        let newLists = newSections.map(\.cards)
        // Cards are read through the addresses of their texts' chunks (old lists' texts first,
        // then the new ones'): see `CardText.withChunkBases`.
        let texts = oldLists.map(\.storedText) + newLists.map(\.storedText)
        self = CardText.withChunkBases(of: texts) { bytes in
            DeckDiff(old: oldSections, oldLists, new: newSections, newLists, bytes: bytes)
        }
    }

    private init(
        old oldSections: [Section], _ oldLists: [CardList], new newSections: [Section], _ newLists: [CardList],
        bytes: ChunkBases
    ) {
        // The old cards in order (global index g): their section, their node, and a table from
        // id to g.
        let oldCards = OldCards(oldLists, bytes: bytes)
        // Each new card in order (n): its node, where its bytes start, its id's hash, and the old
        // card with its id (-1 when new). New list j's text is `bytes`' text `oldLists.count + j`.
        var newBases: [Int] = []
        var newNodes: [CardList.Handle] = []
        var newMatch: [Int32] = []
        let newCount = newLists.reduce(0) { $0 + $1.count }
        newNodes.reserveCapacity(newCount)
        newMatch.reserveCapacity(newCount)
        var newHashes: [UInt32] = []
        newHashes.reserveCapacity(newCount)
        var newStarts: [Int] = []
        newStarts.reserveCapacity(newCount)
        for list in newLists {
            newBases.append(newNodes.count)
            // The hashes are the ones decoding stored in the list's id table, not made again:
            // hashing every new id read every new card's bytes one more time.
            var hashOfHandle = [UInt32](repeating: 0, count: list.handleBound)
            list.storedIDs.forEachEntry { handle, hash in hashOfHandle[Int(handle)] = hash }
            list.forEachHandle { node, start in
                newNodes.append(node)
                newStarts.append(start)
                newHashes.append(hashOfHandle[Int(node)])
            }
        }
        newBases.append(newNodes.count)
        func newRange(_ j: Int) -> Range<Int> { newBases[j]..<newBases[j + 1] }
        func newID(_ j: Int, _ n: Int) -> String { newLists[j].id(of: newNodes[n]) }
        // Whether a new card found among the old ones has other bytes than it: compared as soon as
        // its old card is found, while both cards' bytes are in the cache.
        var changed = [Bool](repeating: false, count: newCount)
        for j in newLists.indices {
            let text = oldLists.count + j
            for n in newRange(j) {
                // The table's slot and the bytes of a card a few places on are asked for now, so
                // that the lookups do not each wait for memory (the table of a million ids is
                // 16 MB, the cards' bytes 157 MB).
                if n + Self.lookAhead < newHashes.count {
                    oldCards.prefetch(hash: newHashes[n + Self.lookAhead])
                    marquee_prefetch(bytes.bytes(text: text, start: newStarts[n + Self.lookAhead]))
                }
                let g = oldCards.index(ofID: bytes.id(text: text, start: newStarts[n]), hash: newHashes[n], bytes)
                newMatch.append(g ?? -1)
                if let g {
                    changed[n] = !bytes.sameCard(
                        text: Int(oldCards.section[Int(g)]), start: oldCards.start[Int(g)], otherText: text,
                        otherStart: newStarts[n])
                }
            }
        }

        // Sections: matched ones in increasing old order stay, chosen to keep the most cards in
        // place (each weighs one more than the cards it keeps, so empty ones count too).
        let matches = Self.matchSections(old: oldSections, new: newSections)
        let matchedNew = newSections.indices.filter { matches[$0] != nil }
        let weights = matchedNew.map { j in
            1
                + newRange(j).reduce(0) { count, n in
                    count + (newMatch[n] >= 0 && oldCards.section[Int(newMatch[n])] == Int32(matches[j]!) ? 1 : 0)
                }
        }
        var kept = [Int?](repeating: nil, count: newSections.count)
        for position in heaviestIncreasingSubsequence(matchedNew.map { matches[$0]! }, weights: weights) {
            kept[matchedNew[position]] = matches[matchedNew[position]]
        }
        let keptOld = Set(kept.compactMap { $0 })

        // Cards that keep their section and their order among the others stay; `found` marks the
        // old cards the new state still has.
        var found = [Bool](repeating: false, count: oldCards.count)
        var candidates: [Int32] = []
        for j in newSections.indices {
            for n in newRange(j) where newMatch[n] >= 0 {
                let g = Int(newMatch[n])
                found[g] = true
                if let k = kept[j], oldCards.section[g] == Int32(k) { candidates.append(Int32(g)) }
            }
        }
        var staying = [Bool](repeating: false, count: oldCards.count)
        for position in longestIncreasingSubsequence(candidates.map { Int($0) }) {
            staying[Int(candidates[position])] = true
        }

        // 1. Cards that are gone.
        for g in 0..<oldCards.count where !found[g] {
            steps.append(.deleteCard(id: oldCards.id(g)))
            deleted += 1
        }

        // 2. New sections, each right after the final section before it.
        var slots = oldSections.indices.map { Slot.old($0) }
        var previousSlot: Int?
        for (j, section) in newSections.enumerated() {
            if let k = kept[j] {
                previousSlot = slots.firstIndex(of: .old(k))
                continue
            }
            let at = previousSlot.map { $0 + 1 } ?? 0
            // A section inserted again at a new place gets its id once the old one has left.
            let id = matches[j] == nil ? section.id : nil
            steps.append(.insertSection(Section(title: section.title, id: id), at: at))
            sectionsInserted += 1
            slots.insert(.new(j), at: at)
            previousSlot = at
        }

        // 3. New content for the cards that stay or move, before any moves: a moved card then
        // carries it, with the template it names (which only the new state may define).
        for (j, newList) in newLists.enumerated() {
            for n in newRange(j) where changed[n] {
                steps.append(.updateCard(newList.card(of: newNodes[n])))
                updated += 1
            }
        }

        // 4. Every card to its final place, right after the final card before it in its section
        // (the cards in between are ones still to move away).
        for j in newSections.indices {
            let w = slots.firstIndex(of: kept[j].map { .old($0) } ?? .new(j))!
            var previous: Int?
            for n in newRange(j) {
                defer { previous = n }
                guard newMatch[n] >= 0 else {
                    steps.append(
                        .insertCard(
                            newLists[j].card(of: newNodes[n]), section: w, after: previous.map { newID(j, $0) }
                        ))
                    inserted += 1
                    continue
                }
                if staying[Int(newMatch[n])] { continue }
                steps.append(.moveCard(id: newID(j, n), section: w, after: previous.map { newID(j, $0) }))
                moved += 1
            }
        }

        // 5. The sections that are gone: every card of theirs was deleted or moved out.
        for position in slots.indices.reversed() {
            guard case .old(let k) = slots[position], !keptOld.contains(k) else { continue }
            steps.append(.deleteSection(at: position))
            sectionsDeleted += 1
        }

        // 6. Titles and ids: of the sections that stayed, and the ids of those inserted again.
        for (j, section) in newSections.enumerated() {
            let current: (title: String?, id: String?) =
                if let k = kept[j] { (oldSections[k].title, oldSections[k].id) } else {
                    (section.title, matches[j] == nil ? section.id : nil)
                }
            guard current.title != section.title || current.id != section.id else { continue }
            steps.append(.retitleSection(at: j, title: section.title, id: section.id))
            sectionsRetitled += 1
        }
    }

    /// How many cards ahead an id table's slot is prefetched: far enough for the memory to come
    /// while the cards in between are looked up.
    static let lookAhead = 16

    /// Carries the steps out on `target`.
    public func apply<Target: DeckDiffTarget>(to target: inout Target) {
        for step in steps { target.perform(step) }
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

/// The old deck's cards in order, each by global index: its section and its node, and a table
/// from id to index (4 + 4 + 8 + 8 bytes a card, where a `[String: place]` map took about 40).
private struct OldCards {
    var section: [Int32] = []
    var node: [CardList.Handle] = []
    /// Where each card's bytes start in its list's `storedText`.
    var start: [Int] = []
    /// Every old id's index; for a deck of one section (what a big feed usually is), the list's
    /// own id table, whose handles `indexOfHandle` turns into indices (4 bytes a card, where a
    /// table of its own took 16 and hashing every old id again).
    private var table = IDTable()
    private var indexOfHandle: [Int32] = []
    private let lists: [CardList]

    var count: Int { node.count }

    init(_ lists: [CardList], bytes: ChunkBases) {
        self.lists = lists
        let total = lists.reduce(0) { $0 + $1.count }
        section.reserveCapacity(total)
        node.reserveCapacity(total)
        start.reserveCapacity(total)
        if lists.count == 1, let cards = lists.first {
            table = cards.storedIDs
            indexOfHandle = [Int32](repeating: -1, count: cards.handleBound)
            cards.forEachHandle { handle, cardStart in
                indexOfHandle[Int(handle)] = Int32(node.count)
                section.append(0)
                node.append(handle)
                start.append(cardStart)
            }
            return
        }
        table.reserveCapacity(total)
        var hashes: [UInt32] = []
        hashes.reserveCapacity(total)
        for (k, cards) in lists.enumerated() {
            cards.forEachHandle { handle, cardStart in
                hashes.append(IDTable.hash(bytes.id(text: k, start: cardStart)))
                section.append(Int32(k))
                node.append(handle)
                start.append(cardStart)
            }
        }
        // Inserted a pass later, with the slot of a card a few places on prefetched.
        for g in hashes.indices {
            if g + DeckDiff.lookAhead < hashes.count { table.prefetch(hash: hashes[g + DeckDiff.lookAhead]) }
            table.insert(Int32(g), hash: hashes[g])
        }
    }

    func prefetch(hash: UInt32) { table.prefetch(hash: hash) }

    /// The global index of the old card with this id (whose `IDTable.hash` is `hash`); the old
    /// lists' texts are the first of `bytes`.
    func index(ofID id: UnsafeBufferPointer<UInt8>, hash: UInt32, _ bytes: ChunkBases) -> Int32? {
        let byHandle = !indexOfHandle.isEmpty
        return table.find(hash: hash) { handle in
            let g = byHandle ? Int(indexOfHandle[Int(handle)]) : Int(handle)
            return CardText.same(bytes.id(text: Int(section[g]), start: start[g]), id)
        }.map { byHandle ? indexOfHandle[Int($0)] : $0 }
    }

    func id(_ g: Int) -> String { lists[Int(section[g])].id(of: node[g]) }
}

extension Deck: DeckDiffTarget {
    public mutating func perform(_ step: DeckDiffStep) {
        switch step {
        case .deleteCard(let id):
            let (s, i) = try! location(ofCard: globalIndex(ofCardWithID: id)!)
            removeCard(section: s, item: i)
        case .insertSection(let section, let at):
            sections.insert(section, at: at)
        case .insertCard(let card, let section, let after):
            sections[section].cards.insert(card, at: after.map { sections[section].cards.position(ofID: $0)! + 1 } ?? 0)
        case .moveCard(let id, let section, let after):
            let (s, i) = try! location(ofCard: globalIndex(ofCardWithID: id)!)
            let card = removeCard(section: s, item: i)
            sections[section].cards.insert(card, at: after.map { sections[section].cards.position(ofID: $0)! + 1 } ?? 0)
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
