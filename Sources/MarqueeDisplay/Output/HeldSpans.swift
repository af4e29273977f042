import MarqueeCore

/// What one scan-out buffer is known to hold: for each frame row, the fills (`ConstantSpans`)
/// its last copy with a table wrote there, in frame columns. A later copy with a table streams
/// only the parts of its fills the buffer does not already hold with the same pixel
/// (docs/architecture.md, "Fills the buffer already holds"): in a scroll, the background beside
/// the cards and the cards' margins fall on the same columns of most rows frame after frame, and
/// each 64-byte line not written is one less write to scan-out memory.
///
/// The record must be true: every write into the buffer goes through `FrameCopier.copy` with
/// the record (a copy without a table forgets its rows), or calls `forgetAll()`.
///
/// Rows are kept in runs that share their spans: a run's spans are stored at its first row's
/// slot and its rows name that slot, so a window copied in runs of rows is recorded with one
/// store of spans a run, and rows that share both their spans now and what the buffer holds are
/// worked out once.
public final class HeldSpans {
    public let height: Int
    // Read for every row copied: without `unchecked`, each read of a class's stored variable is
    // an exclusivity check at run time (as in `ConstantSpans`).
    /// The frame width and turn the record was made for: a copy for another forgets it.
    @exclusivity(unchecked) private var width = 0
    @exclusivity(unchecked) private var rotation = Rotation.none
    /// The slot whose spans row y holds (a row at or above y).
    private let slotOfRow: UnsafeMutablePointer<Int32>
    /// Spans a slot holds, and the slots' spans (`ConstantSpans.perRow` each).
    private let counts: UnsafeMutablePointer<Int32>
    private let spans: UnsafeMutablePointer<ConstantSpans.Span>
    /// The parts of a row's spans to write (`missing`), kept for the pair of a table's run and a
    /// slot they were worked out for. Each span held cuts at most one span in two, so there are
    /// at most as many parts as spans now and spans held together.
    private let parts: UnsafeMutablePointer<ConstantSpans.Span>
    @exclusivity(unchecked) private var partCount = 0
    @exclusivity(unchecked) private var partsFor: (spans: UnsafeBufferPointer<ConstantSpans.Span>, slot: Int)? = nil
    private static let partCapacity = 2 * ConstantSpans.perRow

    public init(height: Int) {
        self.height = max(height, 0)
        let rows = max(self.height, 1)
        slotOfRow = .allocate(capacity: rows)
        counts = .allocate(capacity: rows)
        spans = .allocate(capacity: rows * ConstantSpans.perRow)
        spans.initialize(repeating: ConstantSpans.Span(x0: 0, x1: 0, pixel: 0), count: rows * ConstantSpans.perRow)
        parts = .allocate(capacity: Self.partCapacity)
        parts.initialize(repeating: ConstantSpans.Span(x0: 0, x1: 0, pixel: 0), count: Self.partCapacity)
        forgetAll()
    }

    deinit {
        slotOfRow.deallocate()
        counts.deallocate()
        spans.deallocate()
        parts.deallocate()
    }

    /// Nothing is known of the buffer (written some other way).
    public func forgetAll() {
        for y in 0..<max(height, 1) {
            slotOfRow[y] = Int32(y)
            counts[y] = 0
        }
    }

    /// Rows `rows` were written some other way.
    public func forget(rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        detach(after: rows)
        for y in rows {
            slotOfRow[y] = Int32(rows.lowerBound)
        }
        counts[rows.lowerBound] = 0
    }

    /// Makes the record fit a copy of a frame `width` wide turned by `rotation`: a record made for
    /// another is forgotten.
    func use(width: Int, rotation: Rotation) {
        guard width != self.width || rotation != self.rotation else { return }
        self.width = width
        self.rotation = rotation
        forgetAll()
    }

    /// The spans row `y` holds.
    @inline(__always) func held(row y: Int) -> UnsafeBufferPointer<ConstantSpans.Span> {
        let slot = Int(slotOfRow[y])
        return UnsafeBufferPointer(start: spans + slot &* ConstantSpans.perRow, count: Int(counts[slot]))
    }

    /// The slot row `y` names (rows naming the same slot hold the same spans).
    @inline(__always) func slot(ofRow y: Int) -> Int { Int(slotOfRow[y]) }

    /// Starts a window's copy: what `missing` worked out for the last one no longer holds (the
    /// table and this record are written between windows).
    func beginCopy() { partsFor = nil }

    /// The parts of `now` (row `y`'s spans in the table, left to right) that row `y` of the buffer
    /// does not hold with the same pixel, left to right: what the copy must write.
    @inline(__always) func missing(
        _ now: UnsafeBufferPointer<ConstantSpans.Span>, row y: Int
    ) -> UnsafeBufferPointer<ConstantSpans.Span> {
        let slot = Int(slotOfRow[y])
        if let known = partsFor, Self.same(known.spans, now), known.slot == slot {
            return UnsafeBufferPointer(start: parts, count: partCount)
        }
        partsFor = (now, slot)
        let held = self.held(row: y)
        var count = 0
        var next = 0  // the first held span that may still meet a span of `now`
        for span in now {
            var x0 = span.x0
            while next < held.count && held[next].x1 <= x0 { next &+= 1 }
            var index = next
            while index < held.count && held[index].x0 < span.x1 && x0 < span.x1 {
                let have = held[index]
                if have.pixel == span.pixel {
                    if have.x0 > x0 {
                        parts[count] = ConstantSpans.Span(x0: x0, x1: have.x0, pixel: span.pixel)
                        count &+= 1
                    }
                    x0 = max(x0, have.x1)
                }
                index &+= 1
            }
            if x0 < span.x1 {
                parts[count] = ConstantSpans.Span(x0: x0, x1: span.x1, pixel: span.pixel)
                count &+= 1
            }
        }
        partCount = count
        return UnsafeBufferPointer(start: parts, count: count)
    }

    /// Records that rows `rows` now hold what `table` gives each of them.
    func record(rows: Range<Int>, from table: ConstantSpans) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        detach(after: rows)
        var run: UnsafeBufferPointer<ConstantSpans.Span>? = nil
        var runSlot = Int32(rows.lowerBound)
        for y in rows {
            let now = table.spans(ofRow: y)
            if run.map({ !Self.same($0, now) }) ?? true {
                run = now
                runSlot = Int32(y)
                let count = min(now.count, ConstantSpans.perRow)
                if count > 0, let from = now.baseAddress {
                    (spans + y &* ConstantSpans.perRow).update(from: from, count: count)
                }
                counts[y] = Int32(count)
            }
            slotOfRow[y] = runSlot
        }
    }

    /// Whether two rows' spans from one table are one run's: the same storage and count. (A row
    /// outside the table's window has no spans, at the first run's storage.)
    @inline(__always) private static func same(
        _ a: UnsafeBufferPointer<ConstantSpans.Span>, _ b: UnsafeBufferPointer<ConstantSpans.Span>
    ) -> Bool { a.baseAddress == b.baseAddress && a.count == b.count }

    /// The rows below `rows` that go on a run begun above them are given a slot of their own, a
    /// copy, before `rows` are written over. So every slot is named by one unbroken range of
    /// rows from its own: a run begun above `rows` and cut by it would otherwise be named again
    /// below, and a later window that writes the run's first rows over would change the spans of
    /// those rows too.
    private func detach(after rows: Range<Int>) {
        let below = rows.upperBound
        guard below < height else { return }
        let slot = Int(slotOfRow[below])
        guard slot < below else { return }
        (spans + below &* ConstantSpans.perRow).update(
            from: spans + slot &* ConstantSpans.perRow, count: Int(counts[slot]))
        counts[below] = counts[slot]
        var y = below
        while y < height && Int(slotOfRow[y]) == slot {
            slotOfRow[y] = Int32(below)
            y &+= 1
        }
    }
}
