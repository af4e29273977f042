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

    /// Equal entries next to one another, stored as one tree node: a deck whose cards share a
    /// height is a handful of runs however many cards it has (a million cards took 72 MB as one
    /// node each). Every query finds the run in O(log runs), then the entry in it by arithmetic.
    struct Run: TreapElement, Sendable {
        var entry: Entry
        var repeats: Int

        var summary: Sums { entry.summary.times(repeats) }
    }

    private static let seed: UInt64 = 0x6d61_7271_7565_6521
    private var tree = ImplicitTreap<Run>(seed: seed)

    public init() {}

    /// Builds a balanced index over `entries` in O(n), equal neighbours joined in runs.
    public init<S: Sequence>(_ entries: S) where S.Element == Entry {
        var builder = Builder()
        for entry in entries { builder.append(entry) }
        self = builder.build()
    }

    /// Builds an index from entries given one at a time, without holding them: only the runs.
    public struct Builder {
        private var runs: [Run] = []

        public init() {}

        public mutating func append(_ entry: Entry) {
            if let last = runs.last, last.entry == entry {
                runs[runs.count - 1].repeats += 1
            } else {
                runs.append(Run(entry: entry, repeats: 1))
            }
        }

        public func build() -> HeightIndex {
            var index = HeightIndex()
            index.tree = ImplicitTreap(runs, seed: HeightIndex.seed)
            return index
        }
    }

    public var count: Int { tree.totals.entries }
    public var isEmpty: Bool { tree.isEmpty }
    /// Sums over every entry.
    public var totals: Sums { tree.totals }
    /// Nodes in the tree (runs of equal entries), for tests and memory figures.
    public var runCount: Int { tree.count }

    /// The run holding entry `position` (0..<count): its node position and the sums before it.
    private func run(holding position: Int) -> (node: Int, before: Sums) {
        let found = tree.descend { before, run in
            if position < before.entries { return .left }
            if position < before.entries + run.repeats { return .here }
            return .right
        }
        return (found.position, found.before)
    }

    /// The entry at `position` (0..<count).
    public func entry(at position: Int) -> Entry {
        precondition(position >= 0 && position < count, "HeightIndex: position \(position) out of 0..<\(count)")
        return tree[run(holding: position).node].entry
    }

    /// Sums over the entries before `position` (0...count).
    public func sums(before position: Int) -> Sums {
        precondition(position >= 0 && position <= count, "HeightIndex: position \(position) out of 0...\(count)")
        if position == count { return totals }
        let (node, before) = run(holding: position)
        return before.adding(tree[node].entry.summary.times(position - before.entries))
    }

    /// The first entry whose span `[start, start + extent)` contains `offset`, with the sums
    /// before it. Entries of zero extent contain nothing. Returns `count` and the totals when
    /// `offset` is at or past the end, position 0 when it is negative.
    public func position(containingOffset offset: Double) -> (position: Int, before: Sums) {
        let found = tree.descend { before, run in
            if offset < before.extent { return .left }
            if offset < before.extent + run.summary.extent { return .here }
            return .right
        }
        guard found.position < tree.count else { return (count, totals) }
        let run = tree[found.position]
        // A run of zero extent is reached only by falling off its left (a negative offset): its
        // first entry, as an entry of its own would be.
        guard run.entry.extent > 0 else { return within(run, at: found.before, 0) }
        var inRun = Int(((offset - found.before.extent) / run.entry.extent).rounded(.down))
        inRun = min(max(inRun, 0), run.repeats - 1)
        // Rounding may put the quotient one entry off: check against the sums as they are added.
        while inRun > 0, found.before.extent + run.entry.extent * Double(inRun) > offset { inRun -= 1 }
        while inRun < run.repeats - 1, found.before.extent + run.entry.extent * Double(inRun + 1) <= offset {
            inRun += 1
        }
        return within(run, at: found.before, inRun)
    }

    /// The entry that holds card number `ordinal` (counting cards from 0), with the sums before it.
    public func position(containingCard ordinal: Int) -> (position: Int, before: Sums) {
        let found = tree.descend { before, run in
            if ordinal < before.cards { return .left }
            if ordinal < before.cards + run.entry.cards * run.repeats { return .here }
            return .right
        }
        guard found.position < tree.count else { return (count, totals) }
        let run = tree[found.position]
        return within(run, at: found.before, (ordinal - found.before.cards) / run.entry.cards)
    }

    /// The marker entry of section number `ordinal`, with the sums before it.
    public func position(ofSection ordinal: Int) -> (position: Int, before: Sums) {
        let found = tree.descend { before, run in
            if ordinal < before.sections { return .left }
            if ordinal < before.sections + run.entry.sections * run.repeats { return .here }
            return .right
        }
        guard found.position < tree.count else { return (count, totals) }
        let run = tree[found.position]
        return within(run, at: found.before, (ordinal - found.before.sections) / run.entry.sections)
    }

    /// Entry `inRun` of a run whose first entry has `before` before it.
    private func within(_ run: Run, at before: Sums, _ inRun: Int) -> (position: Int, before: Sums) {
        (before.entries + inRun, before.adding(run.entry.summary.times(inRun)))
    }

    /// Inserts `entry` so that it becomes entry number `position` (0...count).
    public mutating func insert(_ entry: Entry, at position: Int) {
        precondition(position >= 0 && position <= count, "HeightIndex.insert: \(position) out of 0...\(count)")
        guard position < count else {
            // At the end: the last run grows, or a run starts.
            if let last = tree.count > 0 ? tree[tree.count - 1] : nil, last.entry == entry {
                tree.replace(at: tree.count - 1, with: Run(entry: entry, repeats: last.repeats + 1))
            } else {
                tree.insert(Run(entry: entry, repeats: 1), at: tree.count)
            }
            return
        }
        let (node, before) = run(holding: position)
        let run = tree[node]
        let offset = position - before.entries
        if run.entry == entry {
            tree.replace(at: node, with: Run(entry: entry, repeats: run.repeats + 1))
        } else if offset == 0 {
            if node > 0, tree[node - 1].entry == entry {
                tree.replace(at: node - 1, with: Run(entry: entry, repeats: tree[node - 1].repeats + 1))
            } else {
                tree.insert(Run(entry: entry, repeats: 1), at: node)
            }
        } else {
            // Inside a run of other entries: it splits around the new one.
            tree.replace(at: node, with: Run(entry: run.entry, repeats: offset))
            tree.insert(Run(entry: entry, repeats: 1), at: node + 1)
            tree.insert(Run(entry: run.entry, repeats: run.repeats - offset), at: node + 2)
        }
    }

    /// Removes and returns entry number `position`.
    @discardableResult
    public mutating func remove(at position: Int) -> Entry {
        precondition(position >= 0 && position < count, "HeightIndex.remove: \(position) out of 0..<\(count)")
        let (node, _) = run(holding: position)
        let run = tree[node]
        if run.repeats > 1 {
            tree.replace(at: node, with: Run(entry: run.entry, repeats: run.repeats - 1))
        } else {
            tree.remove(at: node, placeholder: run)
            // The runs on either side may now be equal: join them.
            if node > 0, node < tree.count, tree[node - 1].entry == tree[node].entry {
                let left = tree[node - 1]
                let joined = left.repeats + tree[node].repeats
                tree.remove(at: node, placeholder: left)
                tree.replace(at: node - 1, with: Run(entry: left.entry, repeats: joined))
            }
        }
        return run.entry
    }

    /// Replaces entry number `position`.
    public mutating func replace(at position: Int, with entry: Entry) {
        guard entry != self.entry(at: position) else { return }
        remove(at: position)
        insert(entry, at: position)
    }

    /// Every entry in order (O(n); for tests and debugging).
    public var entries: [Entry] {
        IteratorSequence(tree.makeIterator()).flatMap { repeatElement($0.entry, count: $0.repeats) }
    }

    /// The tree's height (for tests that check it stays logarithmic).
    public var depth: Int { tree.depth }
}

extension HeightIndex.Sums {
    /// The sums of `count` entries with these sums each.
    func times(_ count: Int) -> Self {
        Self(extent: extent * Double(count), cards: cards * count, sections: sections * count, entries: entries * count)
    }

    func adding(_ other: Self) -> Self {
        var sum = self
        sum.add(other)
        return sum
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
