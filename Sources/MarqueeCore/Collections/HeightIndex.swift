/// An ordered sequence of layout entries (section markers and card rows) with prefix sums over
/// their vertical extents, card counts and section counts.
///
/// It answers "which entry contains offset y", "which entry holds card k", "where does entry p
/// start" and supports insert and delete at any position, each in O(log n) expected time.
/// A Fenwick tree answers the sums in O(log n) too, but inserting in its middle is O(n); this is
/// an `ImplicitTreap` whose subtree sums are `Sums`. See docs/architecture.md, "Height index".
public struct HeightIndex: Sendable {
    /// One entry as the layout stores it.
    public struct Entry: Equatable, Sendable, TreapElement {
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

        public var summary: Sums { Sums(extent: extent, cards: cards, sections: sections, entries: 1) }
    }

    /// Sums over a run of entries.
    public struct Sums: Equatable, Sendable, TreapSummary {
        public var extent: Double = 0
        public var cards: Int = 0
        public var sections: Int = 0
        public var entries: Int = 0

        public init() {}

        init(extent: Double, cards: Int, sections: Int, entries: Int) {
            self.extent = extent
            self.cards = cards
            self.sections = sections
            self.entries = entries
        }

        public mutating func add(_ other: Sums) {
            extent += other.extent
            cards += other.cards
            sections += other.sections
            entries += other.entries
        }
    }

    private static let seed: UInt64 = 0x6d61_7271_7565_6521
    private var tree = ImplicitTreap<Entry>(seed: seed)

    public init() {}

    /// Builds a balanced index over `entries` in O(n).
    public init<S: Sequence>(_ entries: S) where S.Element == Entry { tree = ImplicitTreap(entries, seed: Self.seed) }

    public var count: Int { tree.count }
    public var isEmpty: Bool { tree.isEmpty }
    /// Sums over every entry.
    public var totals: Sums { tree.totals }

    /// The entry at `position` (0..<count).
    public func entry(at position: Int) -> Entry { tree[position] }

    /// Sums over the entries before `position` (0...count).
    public func sums(before position: Int) -> Sums { tree.summary(before: position) }

    /// The first entry whose span `[start, start + extent)` contains `offset`, with the sums
    /// before it. Entries of zero extent contain nothing. Returns `count` and the totals when
    /// `offset` is at or past the end, position 0 when it is negative.
    public func position(containingOffset offset: Double) -> (position: Int, before: Sums) {
        tree.descend { before, entry in
            if offset < before.extent { return .left }
            if offset < before.extent + entry.extent { return .here }
            return .right
        }
    }

    /// The entry that holds card number `ordinal` (counting cards from 0), with the sums before it.
    public func position(containingCard ordinal: Int) -> (position: Int, before: Sums) {
        tree.descend { before, entry in
            if ordinal < before.cards { return .left }
            if ordinal < before.cards + entry.cards { return .here }
            return .right
        }
    }

    /// The marker entry of section number `ordinal`, with the sums before it.
    public func position(ofSection ordinal: Int) -> (position: Int, before: Sums) {
        tree.descend { before, entry in
            if ordinal < before.sections { return .left }
            if ordinal < before.sections + entry.sections { return .here }
            return .right
        }
    }

    /// Inserts `entry` so that it becomes entry number `position` (0...count).
    public mutating func insert(_ entry: Entry, at position: Int) { tree.insert(entry, at: position) }

    /// Removes and returns entry number `position`.
    @discardableResult
    public mutating func remove(at position: Int) -> Entry {
        tree.remove(at: position, placeholder: Entry(extent: 0, cards: 0, sections: 0)).element
    }

    /// Replaces entry number `position`.
    public mutating func replace(at position: Int, with entry: Entry) { tree.replace(at: position, with: entry) }

    /// Every entry in order (O(n); for tests and debugging).
    public var entries: [Entry] { Array(IteratorSequence(tree.makeIterator())) }

    /// The tree's height (for tests that check it stays logarithmic).
    public var depth: Int { tree.depth }
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
