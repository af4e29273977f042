/// An ordered sequence of layout entries (section markers and card rows) with prefix sums over
/// their vertical extents, card counts and section counts.
///
/// It answers "which entry contains offset y", "which entry holds card k", "where does entry p
/// start" and supports insert and delete at any position, each in O(log n) expected time.
/// A Fenwick tree answers the sums in O(log n) too, but inserting in its middle is O(n); this is
/// an implicit treap (a tree ordered by position, balanced by random choices) stored in one array
/// of nodes so that a million entries cost one allocation, not a million.
/// See docs/architecture.md, "Height index".
public struct HeightIndex: Sendable {
    /// One entry as the layout stores it.
    public struct Entry: Equatable, Sendable {
        /// Vertical space the entry takes, including the spacing after it.
        public var extent: Double
        /// Cards in the entry: 0 for a section marker, 1 for a list row, up to `columns` in a grid row.
        public var cards: Int
        /// 1 for the marker that starts a section, else 0.
        public var sections: Int

        public init(extent: Double, cards: Int, sections: Int) {
            self.extent = extent
            self.cards = cards
            self.sections = sections
        }
    }

    /// Sums over a run of entries.
    public struct Sums: Equatable, Sendable {
        public var extent: Double = 0
        public var cards: Int = 0
        public var sections: Int = 0
        public var entries: Int = 0

        public init() {}

        mutating func add(_ entry: Entry) {
            extent += entry.extent
            cards += entry.cards
            sections += entry.sections
            entries += 1
        }

        mutating func add(_ sums: Sums) {
            extent += sums.extent
            cards += sums.cards
            sections += sums.sections
            entries += sums.entries
        }
    }

    private struct Node {
        var entry: Entry
        var subtree: Sums
        var left: Int32
        var right: Int32
    }

    private static let none: Int32 = -1
    private var nodes: [Node] = []
    private var freeNodes: [Int32] = []
    private var root: Int32 = none
    /// A fixed-seed generator: the tree's shape, and so its speed, is the same on every run.
    private var random = SplitMix64(seed: 0x6d61_7271_7565_6521)

    public init() {}

    /// Builds a balanced tree over `entries` in O(n).
    public init<S: Sequence>(_ entries: S) where S.Element == Entry {
        nodes.reserveCapacity(entries.underestimatedCount)
        for entry in entries {
            var sums = Sums()
            sums.add(entry)
            nodes.append(Node(entry: entry, subtree: sums, left: Self.none, right: Self.none))
        }
        root = buildBalanced(0, nodes.count)
    }

    private mutating func buildBalanced(_ lower: Int, _ upper: Int) -> Int32 {
        guard lower < upper else { return Self.none }
        let middle = (lower + upper) / 2
        nodes[middle].left = buildBalanced(lower, middle)
        nodes[middle].right = buildBalanced(middle + 1, upper)
        update(Int32(middle))
        return Int32(middle)
    }

    public var count: Int { totals.entries }
    public var isEmpty: Bool { root == Self.none }

    /// Sums over every entry.
    public var totals: Sums { root == Self.none ? Sums() : nodes[Int(root)].subtree }

    private func sums(_ node: Int32) -> Sums { node == Self.none ? Sums() : nodes[Int(node)].subtree }

    private mutating func update(_ node: Int32) {
        let index = Int(node)
        var sums = self.sums(nodes[index].left)
        sums.add(nodes[index].entry)
        sums.add(self.sums(nodes[index].right))
        nodes[index].subtree = sums
    }

    // MARK: Queries

    /// The entry at `position` (0..<count).
    public func entry(at position: Int) -> Entry {
        precondition(
            position >= 0 && position < count, "HeightIndex.entry(at:): position \(position) out of 0..<\(count)")
        var node = root
        var remaining = position
        while true {
            let leftCount = sums(nodes[Int(node)].left).entries
            if remaining < leftCount {
                node = nodes[Int(node)].left
            } else if remaining == leftCount {
                return nodes[Int(node)].entry
            } else {
                remaining -= leftCount + 1
                node = nodes[Int(node)].right
            }
        }
    }

    /// Sums over the entries before `position` (0...count).
    public func sums(before position: Int) -> Sums {
        precondition(position >= 0 && position <= count, "HeightIndex.sums(before:): \(position) out of 0...\(count)")
        var result = Sums()
        var node = root
        var remaining = position
        while node != Self.none, remaining > 0 {
            let left = sums(nodes[Int(node)].left)
            if remaining <= left.entries {
                node = nodes[Int(node)].left
            } else {
                result.add(left)
                result.add(nodes[Int(node)].entry)
                remaining -= left.entries + 1
                node = nodes[Int(node)].right
            }
        }
        return result
    }

    /// The first entry whose span `[start, start + extent)` contains `offset`, with the sums
    /// before it. Entries of zero extent contain nothing. Returns `count` and the totals when
    /// `offset` is at or past the end, position 0 when it is negative.
    public func position(containingOffset offset: Double) -> (position: Int, before: Sums) {
        descend { left, entry in
            if offset < left.extent { return .left }
            if offset < left.extent + entry.extent { return .here }
            return .right
        }
    }

    /// The entry that holds card number `ordinal` (counting cards from 0), with the sums before it.
    public func position(containingCard ordinal: Int) -> (position: Int, before: Sums) {
        descend { left, entry in
            if ordinal < left.cards { return .left }
            if ordinal < left.cards + entry.cards { return .here }
            return .right
        }
    }

    /// The marker entry of section number `ordinal`, with the sums before it.
    public func position(ofSection ordinal: Int) -> (position: Int, before: Sums) {
        descend { left, entry in
            if ordinal < left.sections { return .left }
            if ordinal < left.sections + entry.sections { return .here }
            return .right
        }
    }

    private enum Direction { case left, here, right }

    /// Walks down from the root; `choose` sees the sums left of the node (relative to the walk)
    /// plus what was already passed, and the node's entry.
    private func descend(_ choose: (_ leftAndBefore: Sums, _ entry: Entry) -> Direction) -> (
        position: Int, before: Sums
    ) {
        var before = Sums()
        var node = root
        while node != Self.none {
            var leftAndBefore = before
            leftAndBefore.add(sums(nodes[Int(node)].left))
            switch choose(leftAndBefore, nodes[Int(node)].entry) {
            case .left:
                node = nodes[Int(node)].left
            case .here:
                return (leftAndBefore.entries, leftAndBefore)
            case .right:
                before = leftAndBefore
                before.add(nodes[Int(node)].entry)
                node = nodes[Int(node)].right
            }
        }
        return (before.entries, before)
    }

    // MARK: Changes

    /// Inserts `entry` so that it becomes entry number `position` (0...count).
    public mutating func insert(_ entry: Entry, at position: Int) {
        precondition(position >= 0 && position <= count, "HeightIndex.insert(_:at:): \(position) out of 0...\(count)")
        var sums = Sums()
        sums.add(entry)
        let node = Node(entry: entry, subtree: sums, left: Self.none, right: Self.none)
        let newNode: Int32
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = node
            newNode = reused
        } else {
            nodes.append(node)
            newNode = Int32(nodes.count - 1)
        }
        let (left, right) = split(root, position)
        root = merge(merge(left, newNode), right)
    }

    /// Removes and returns entry number `position`.
    @discardableResult
    public mutating func remove(at position: Int) -> Entry {
        precondition(position >= 0 && position < count, "HeightIndex.remove(at:): \(position) out of 0..<\(count)")
        let (left, rest) = split(root, position)
        let (single, right) = split(rest, 1)
        let entry = nodes[Int(single)].entry
        freeNodes.append(single)
        root = merge(left, right)
        return entry
    }

    /// Replaces entry number `position`.
    public mutating func replace(at position: Int, with entry: Entry) {
        precondition(
            position >= 0 && position < count, "HeightIndex.replace(at:with:): \(position) out of 0..<\(count)")
        var path: [Int32] = []
        var node = root
        var remaining = position
        while true {
            path.append(node)
            let leftCount = sums(nodes[Int(node)].left).entries
            if remaining < leftCount {
                node = nodes[Int(node)].left
            } else if remaining == leftCount {
                break
            } else {
                remaining -= leftCount + 1
                node = nodes[Int(node)].right
            }
        }
        nodes[Int(node)].entry = entry
        for visited in path.reversed() { update(visited) }
    }

    /// Splits the tree under `node` into the first `position` entries and the rest.
    private mutating func split(_ node: Int32, _ position: Int) -> (Int32, Int32) {
        guard node != Self.none else { return (Self.none, Self.none) }
        let leftCount = sums(nodes[Int(node)].left).entries
        if position <= leftCount {
            let (first, second) = split(nodes[Int(node)].left, position)
            nodes[Int(node)].left = second
            update(node)
            return (first, node)
        } else {
            let (first, second) = split(nodes[Int(node)].right, position - leftCount - 1)
            nodes[Int(node)].right = first
            update(node)
            return (node, second)
        }
    }

    /// Joins two trees, all of `left` before all of `right`. The root is chosen with probability
    /// proportional to subtree size, which keeps the expected depth logarithmic without storing
    /// priorities (a "randomized meldable" treap).
    private mutating func merge(_ left: Int32, _ right: Int32) -> Int32 {
        if left == Self.none { return right }
        if right == Self.none { return left }
        let leftCount = UInt64(sums(left).entries)
        let rightCount = UInt64(sums(right).entries)
        if random.next() % (leftCount + rightCount) < leftCount {
            nodes[Int(left)].right = merge(nodes[Int(left)].right, right)
            update(left)
            return left
        } else {
            nodes[Int(right)].left = merge(left, nodes[Int(right)].left)
            update(right)
            return right
        }
    }

    /// Every entry in order (O(n); for tests and debugging).
    public var entries: [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(count)
        var stack: [Int32] = []
        var node = root
        while node != Self.none || !stack.isEmpty {
            while node != Self.none {
                stack.append(node)
                node = nodes[Int(node)].left
            }
            let top = stack.removeLast()
            result.append(nodes[Int(top)].entry)
            node = nodes[Int(top)].right
        }
        return result
    }

    /// The tree's height (for tests that check it stays logarithmic).
    public var depth: Int {
        func depth(_ node: Int32) -> Int {
            node == Self.none ? 0 : 1 + max(depth(nodes[Int(node)].left), depth(nodes[Int(node)].right))
        }
        return depth(root)
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
