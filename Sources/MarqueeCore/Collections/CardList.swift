/// The cards of a section: an ordered collection with O(log n) insert, remove and access by
/// position, and O(log n) "where is the card with this id", so that editing a card far from the
/// viewport of a million-card deck costs O(log n), not a move of every card after it (as an
/// `Array` would). An `ImplicitTreap` plus a map from id to tree node. It offers the parts of the
/// `Array` API the rest of Marquee uses, and iterates in order in O(n).
public struct CardList: RandomAccessCollection, MutableCollection, Sendable, ExpressibleByArrayLiteral {
    private static let seed: UInt64 = 0x6361_7264_6c69_7374
    private var tree = ImplicitTreap<Card>(seed: seed)
    private var nodeOfID: [String: ImplicitTreap<Card>.Handle] = [:]

    public init() {}

    public init<S: Sequence>(_ cards: S) where S.Element == Card {
        tree = ImplicitTreap(cards, seed: Self.seed)
        nodeOfID.reserveCapacity(tree.count)
        // A built tree's handles are the positions of the sequence.
        for (position, card) in IteratorSequence(tree.makeIterator()).enumerated() {
            nodeOfID[card.id] = Int32(position)
        }
    }

    public init(arrayLiteral cards: Card...) { self.init(cards) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { tree.count }
    public var count: Int { tree.count }
    public var isEmpty: Bool { tree.isEmpty }

    public subscript(position: Int) -> Card {
        get { tree[position] }
        set {
            let oldID = tree[position].id
            tree.replace(at: position, with: newValue)
            if oldID != newValue.id {
                let handle = nodeOfID.removeValue(forKey: oldID) ?? tree.handle(at: position)
                nodeOfID[newValue.id] = handle
            }
        }
    }

    /// In order, O(n) for the whole list.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: ImplicitTreap<Card>.Iterator
        public mutating func next() -> Card? { base.next() }
    }

    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator()) }

    /// The position of the card with `id`, or nil: O(log n).
    public func position(ofID id: String) -> Int? { nodeOfID[id].map { tree.position(of: $0) } }

    public func contains(id: String) -> Bool { nodeOfID[id] != nil }

    public mutating func insert(_ card: Card, at position: Int) { nodeOfID[card.id] = tree.insert(card, at: position) }

    public mutating func append(_ card: Card) { insert(card, at: count) }

    @discardableResult
    public mutating func remove(at position: Int) -> Card {
        let (card, handle) = tree.remove(at: position, placeholder: Card(id: ""))
        if nodeOfID[card.id] == handle { nodeOfID[card.id] = nil }
        return card
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        tree.reserveCapacity(capacity)
        nodeOfID.reserveCapacity(capacity)
    }
}

extension Card: TreapElement {
    public var summary: NoSummary { NoSummary() }
}

extension CardList: Equatable {
    public static func == (lhs: CardList, rhs: CardList) -> Bool { lhs.count == rhs.count && lhs.elementsEqual(rhs) }
}

extension CardList: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for card in self { hasher.combine(card) }
    }
}
