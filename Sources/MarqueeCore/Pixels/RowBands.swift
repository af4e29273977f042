/// A few bands of frame rows, sorted and disjoint: the rows a frame changed, as the renderer reports
/// them to a display backend and as a backend keeps what each scan-out buffer lacks.
///
/// Stored inline, at most `capacity` bands, so a frame's bands cost no allocation: past the cap
/// the two bands with the smallest gap between them become one (the rows between are copied
/// needlessly, never missed: a band may hold unchanged rows, never lack a changed one). Bands that
/// touch or overlap are merged as they are added.
public struct RowBands: Sendable, RandomAccessCollection, Equatable, CustomStringConvertible {
    /// Why four: a clock, a marquee and an edited card are three separate places on a board, and a
    /// scan-out buffer written two frames ago lacks the union of two frames' bands, mostly the same
    /// places. More bands would leave gaps of few rows, not worth one more copy loop or clip.
    public static let capacity = 4

    private var storage = InlineArray<4, Range<Int>>(repeating: 0..<0)
    public private(set) var count = 0

    /// No rows.
    public init() {}

    /// One band (none if `rows` is empty).
    public init(_ rows: Range<Int>) { insert(rows) }

    /// The union of `bands`, coalesced past the cap. An array, not any sequence: called from
    /// another module, a generic sequence's iteration is not specialized and allocated (six
    /// mallocs a frame in the steady-state frame benchmark).
    public init(_ bands: [Range<Int>]) {
        for band in bands { insert(band) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> Range<Int> {
        precondition(position >= 0 && position < count, "RowBands: index out of range")
        return storage[position]
    }

    /// The rows from the first band's start to the last band's end (empty when there are none).
    public var covering: Range<Int> {
        count == 0 ? 0..<0 : storage[0].lowerBound..<storage[count - 1].upperBound
    }

    /// Every row of the bands, counted once.
    public var rowCount: Int {
        var total = 0
        for index in 0..<count { total += storage[index].count }
        return total
    }

    /// Adds `rows`: merged with the bands it touches or overlaps, else put in its place; past the
    /// cap, the two neighbours closest together are joined.
    public mutating func insert(_ rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        var merged = rows
        // The bands that touch `rows` are consecutive: from `first` up to (not including) `last`.
        var first = 0
        while first < count, storage[first].upperBound < merged.lowerBound { first += 1 }
        var last = first
        while last < count, storage[last].lowerBound <= merged.upperBound {
            merged = Self.span(merged, storage[last])
            last += 1
        }
        let removed = last - first
        if removed == 0 && count == Self.capacity {
            // Full: take `rows` in, then join the two bands with the smallest gap.
            joinClosest(adding: merged, at: first)
            return
        }
        // Replace storage[first..<last] by `merged`.
        if removed == 0 {
            var index = count
            while index > first {
                storage[index] = storage[index - 1]
                index -= 1
            }
            count += 1
        } else if removed > 1 {
            for index in last..<count { storage[index - removed + 1] = storage[index] }
            count -= removed - 1
        }
        storage[first] = merged
    }

    /// With `capacity` bands and `rows` to go at `position` between them (touching none), keeps
    /// `capacity` bands by joining the closest pair of the `capacity + 1`.
    private mutating func joinClosest(adding rows: Range<Int>, at position: Int) {
        func band(_ index: Int) -> Range<Int> {
            index < position ? storage[index] : index == position ? rows : storage[index - 1]
        }
        var closest = 0
        var smallest = Int.max
        for index in 0..<Self.capacity {
            let gap = band(index + 1).lowerBound - band(index).upperBound
            if gap < smallest { (closest, smallest) = (index, gap) }
        }
        var all = InlineArray<5, Range<Int>>(repeating: 0..<0)
        for index in 0...Self.capacity { all[index] = band(index) }
        var written = 0
        var index = 0
        while index <= Self.capacity {
            if index == closest {
                storage[written] = Self.span(all[index], all[index + 1])
                index += 2
            } else {
                storage[written] = all[index]
                index += 1
            }
            written += 1
        }
        count = Self.capacity
    }

    /// From the first's start or the second's, whichever is lower, to the higher end.
    private static func span(_ first: Range<Int>, _ second: Range<Int>) -> Range<Int> {
        Swift.min(first.lowerBound, second.lowerBound)..<Swift.max(first.upperBound, second.upperBound)
    }

    /// Adds every band of `other`.
    public mutating func formUnion(_ other: RowBands) {
        for band in other { insert(band) }
    }

    /// The bands within `limits` (bands outside them dropped, those across cut).
    public func clamped(to limits: Range<Int>) -> RowBands {
        var result = RowBands()
        for band in self { result.insert(band.clamped(to: limits)) }
        return result
    }

    public static func == (left: RowBands, right: RowBands) -> Bool {
        guard left.count == right.count else { return false }
        for index in 0..<left.count where left.storage[index] != right.storage[index] { return false }
        return true
    }

    public var description: String {
        "[" + map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
    }
}

extension RowBands: ExpressibleByArrayLiteral {
    public init(arrayLiteral bands: Range<Int>...) { self.init(bands) }
}
