/// The cards of a section: an ordered collection with O(log n) insert, remove and access by
/// position, so that editing a card far from the viewport of a million-card deck costs
/// O(log n), not a move of every card after it (as an `Array` would).
///
/// An implicit treap, like `HeightIndex`: nodes in one array, ordered by position, balanced by
/// random (size-weighted) choices when trees are joined. It also maps each card id to its node,
/// and nodes know their parent, so "where is the card with this id" is O(log n) too. It offers the
/// parts of the `Array` API the rest of Marquee uses, and iterates in order in O(n).
public struct CardList: RandomAccessCollection, MutableCollection, Sendable, ExpressibleByArrayLiteral {
    private struct Node: Sendable {
        var card: Card
        var left: Int32
        var right: Int32
        var parent: Int32
        var size: Int32
    }

    private static let none: Int32 = -1
    private var nodes: [Node] = []
    private var freeNodes: [Int32] = []
    private var root: Int32 = none
    private var random = SplitMix64(seed: 0x6361_7264_6c69_7374)
    private var nodeOfID: [String: Int32] = [:]

    public init() {}

    public init<S: Sequence>(_ cards: S) where S.Element == Card {
        nodes.reserveCapacity(cards.underestimatedCount)
        nodeOfID.reserveCapacity(cards.underestimatedCount)
        for card in cards {
            nodeOfID[card.id] = Int32(nodes.count)
            nodes.append(Node(card: card, left: Self.none, right: Self.none, parent: Self.none, size: 1))
        }
        root = buildBalanced(0, nodes.count)
        if root != Self.none { nodes[Int(root)].parent = Self.none }
    }

    public init(arrayLiteral cards: Card...) { self.init(cards) }

    private mutating func buildBalanced(_ lower: Int, _ upper: Int) -> Int32 {
        guard lower < upper else { return Self.none }
        let middle = (lower + upper) / 2
        setLeft(Int32(middle), buildBalanced(lower, middle))
        setRight(Int32(middle), buildBalanced(middle + 1, upper))
        nodes[middle].size = Int32(upper - lower)
        return Int32(middle)
    }

    private mutating func setLeft(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].left = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func setRight(_ node: Int32, _ child: Int32) {
        nodes[Int(node)].right = child
        if child != Self.none { nodes[Int(child)].parent = node }
    }

    private mutating func setRoot(_ node: Int32) {
        root = node
        if node != Self.none { nodes[Int(node)].parent = Self.none }
    }

    /// The position of the card with `id`, or nil: O(log n).
    public func position(ofID id: String) -> Int? {
        guard var node = nodeOfID[id] else { return nil }
        var position = size(nodes[Int(node)].left)
        while nodes[Int(node)].parent != Self.none {
            let parent = nodes[Int(node)].parent
            if nodes[Int(parent)].right == node { position += size(nodes[Int(parent)].left) + 1 }
            node = parent
        }
        return position
    }

    public func contains(id: String) -> Bool { nodeOfID[id] != nil }

    private func size(_ node: Int32) -> Int { node == Self.none ? 0 : Int(nodes[Int(node)].size) }

    private mutating func update(_ node: Int32) {
        nodes[Int(node)].size = Int32(1 + size(nodes[Int(node)].left) + size(nodes[Int(node)].right))
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { size(root) }
    public var count: Int { size(root) }
    public var isEmpty: Bool { root == Self.none }

    private func node(at position: Int) -> Int32 {
        precondition(position >= 0 && position < count, "CardList: position \(position) out of 0..<\(count)")
        var node = root
        var remaining = position
        while true {
            let leftSize = size(nodes[Int(node)].left)
            if remaining < leftSize {
                node = nodes[Int(node)].left
            } else if remaining == leftSize {
                return node
            } else {
                remaining -= leftSize + 1
                node = nodes[Int(node)].right
            }
        }
    }

    public subscript(position: Int) -> Card {
        get { nodes[Int(node(at: position))].card }
        set {
            let node = node(at: position)
            let oldID = nodes[Int(node)].card.id
            if oldID != newValue.id {
                nodeOfID[oldID] = nil
                nodeOfID[newValue.id] = node
            }
            nodes[Int(node)].card = newValue
        }
    }

    /// In order, O(n) for the whole list.
    public struct Iterator: IteratorProtocol {
        fileprivate let list: CardList
        fileprivate var stack: [Int32] = []
        fileprivate var pending: Int32

        public mutating func next() -> Card? {
            while pending != CardList.none {
                stack.append(pending)
                pending = list.nodes[Int(pending)].left
            }
            guard let top = stack.popLast() else { return nil }
            pending = list.nodes[Int(top)].right
            return list.nodes[Int(top)].card
        }
    }

    public func makeIterator() -> Iterator { Iterator(list: self, pending: root) }

    // MARK: Editing

    public mutating func insert(_ card: Card, at position: Int) {
        precondition(position >= 0 && position <= count, "CardList.insert: position \(position) out of 0...\(count)")
        let node = Node(card: card, left: Self.none, right: Self.none, parent: Self.none, size: 1)
        let newNode: Int32
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = node
            newNode = reused
        } else {
            nodes.append(node)
            newNode = Int32(nodes.count - 1)
        }
        nodeOfID[card.id] = newNode
        let (left, right) = split(root, position)
        setRoot(merge(merge(left, newNode), right))
    }

    public mutating func append(_ card: Card) { insert(card, at: count) }

    @discardableResult
    public mutating func remove(at position: Int) -> Card {
        precondition(position >= 0 && position < count, "CardList.remove: position \(position) out of 0..<\(count)")
        let (left, rest) = split(root, position)
        let (single, right) = split(rest, 1)
        let card = nodes[Int(single)].card
        if nodeOfID[card.id] == single { nodeOfID[card.id] = nil }
        // Release the card's strings now, not when the slot is reused.
        nodes[Int(single)].card = Card(id: "")
        freeNodes.append(single)
        setRoot(merge(left, right))
        return card
    }

    public mutating func reserveCapacity(_ capacity: Int) { nodes.reserveCapacity(capacity) }

    private mutating func split(_ node: Int32, _ position: Int) -> (Int32, Int32) {
        guard node != Self.none else { return (Self.none, Self.none) }
        let leftSize = size(nodes[Int(node)].left)
        if position <= leftSize {
            let (first, second) = split(nodes[Int(node)].left, position)
            setLeft(node, second)
            if first != Self.none { nodes[Int(first)].parent = Self.none }
            update(node)
            return (first, node)
        } else {
            let (first, second) = split(nodes[Int(node)].right, position - leftSize - 1)
            setRight(node, first)
            if second != Self.none { nodes[Int(second)].parent = Self.none }
            update(node)
            return (node, second)
        }
    }

    private mutating func merge(_ left: Int32, _ right: Int32) -> Int32 {
        if left == Self.none { return right }
        if right == Self.none { return left }
        let leftSize = UInt64(size(left))
        let rightSize = UInt64(size(right))
        if random.next() % (leftSize + rightSize) < leftSize {
            setRight(left, merge(nodes[Int(left)].right, right))
            update(left)
            return left
        } else {
            setLeft(right, merge(left, nodes[Int(right)].left))
            update(right)
            return right
        }
    }
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
