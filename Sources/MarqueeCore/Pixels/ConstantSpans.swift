import CFill

/// Runs of one colour in the rows of a band that the band renderer leaves out of the band and
/// the scan-out copy writes straight from a register (docs/architecture.md, "Fills left to the
/// copy"). Most of a frame is plain fills (the background, the cards' interiors); written into
/// the band, each such pixel is stored once there, read once by the copy and stored again in
/// scan-out memory. Left here, it is only stored in scan-out memory.
///
/// A span covers whole lines of the destination (`linePixels` pixels, 64 bytes of XRGB8888):
/// its ends lie where `(x - phase) % linePixels == 0` (the copy's own line grid in the band's
/// columns, 0 for an unturned copy, `width % 16` for a half turn). The parts of a fill outside
/// whole lines are written into the band at once, so a line is either all span or all band.
///
/// Later writes win, as in the band itself: a fill over a span replaces the part it covers, and
/// anything other than a fill must first call `materialize` for what it will read or write,
/// which writes the spans there into the band (in whole lines) and cuts them out of the table.
/// The table holds one window of rows at a time (`begin`), at most `perRow` spans a row; a row
/// that would need more has its span written into the band instead (correct, only slower).
/// Rows are kept in runs that share their spans (a fill or a drawing over many rows is one step
/// for each run it covers, not for each row): a window starts as one run, and a step cuts the
/// runs at its first and last row.
public final class ConstantSpans {
    public struct Span: Equatable {
        public var x0: Int
        public var x1: Int
        public var pixel: UInt32

        public init(x0: Int, x1: Int, pixel: UInt32) {
            self.x0 = x0
            self.x1 = x1
            self.pixel = pixel
        }
    }

    /// Spans a row holds at most.
    public static let perRow = 8
    /// Rows of the window, at most (the band's height).
    public let capacity: Int
    public let linePixels: Int
    public let phase: Int
    // Read at every step: without `unchecked`, each read of a class's stored variable is an
    // exclusivity check at run time (a quarter of the table's time, perf).
    /// The frame rows of the window the table holds now.
    @exclusivity(unchecked) public private(set) var window: Range<Int> = 0..<0
    /// The frame view the band renderer draws into (its rows in `window` are backed).
    @exclusivity(unchecked) public private(set) var frameBase: UnsafeMutablePointer<UInt32>?
    @exclusivity(unchecked) private var stride = 0
    @exclusivity(unchecked) private(set) var width = 0
    /// The runs top to bottom: run k is rows `runStarts[k] ..< runStarts[k + 1]` (the last one
    /// to the window's end), its spans in slot `runSlots[k]`. Runs never join within a window, so
    /// slots are taken in order and there are never more than rows.
    private let runStarts: UnsafeMutablePointer<Int>
    private let runSlots: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var runCount = 0
    /// Spans a slot holds, and the slots' spans (`perRow` each).
    private let counts: UnsafeMutablePointer<Int>
    private let spans: UnsafeMutablePointer<Span>
    /// The run `spans(ofRow:)` found last: the copy reads rows top to bottom.
    @exclusivity(unchecked) private var lastRun = 0

    public init(rows: Int, linePixels: Int = 16, phase: Int = 0) {
        precondition(rows > 0 && linePixels > 0, "ConstantSpans: empty")
        precondition(linePixels & (linePixels - 1) == 0, "ConstantSpans: lines of \(linePixels) pixels")
        capacity = rows
        self.linePixels = linePixels
        self.phase = ((phase % linePixels) + linePixels) % linePixels
        runStarts = .allocate(capacity: rows)
        runStarts.initialize(repeating: 0, count: rows)
        runSlots = .allocate(capacity: rows)
        runSlots.initialize(repeating: 0, count: rows)
        counts = .allocate(capacity: rows)
        counts.initialize(repeating: 0, count: rows)
        spans = .allocate(capacity: rows * Self.perRow)
        spans.initialize(repeating: Span(x0: 0, x1: 0, pixel: 0), count: rows * Self.perRow)
    }

    deinit {
        runStarts.deallocate()
        runSlots.deallocate()
        counts.deallocate()
        spans.deallocate()
    }

    /// Starts a window of `frame`'s rows with no spans.
    public func begin(window: Range<Int>, of frame: PixelBuffer) {
        precondition(
            window.count <= capacity, "ConstantSpans: a window of \(window.count) rows in a table of \(capacity)")
        self.window = window
        frameBase = frame.baseAddress
        stride = frame.stride
        width = frame.width
        runCount = window.isEmpty ? 0 : 1
        runStarts[0] = window.lowerBound
        runSlots[0] = 0
        counts[0] = 0
        lastRun = 0
    }

    /// Ends the window: the copy that follows takes every row from the band.
    public func end() {
        window = 0..<0
        frameBase = nil
        runCount = 0
    }

    /// Whether no row of the window holds a span.
    public var isEmpty: Bool { (0..<runCount).allSatisfy { counts[runSlots[$0]] == 0 } }

    /// The spans of frame row `y`, left to right (none outside the window).
    @inline(__always) public func spans(ofRow y: Int) -> UnsafeBufferPointer<Span> {
        guard window.contains(y), runCount > 0 else { return UnsafeBufferPointer(start: spans, count: 0) }
        var run = lastRun < runCount && runStarts[lastRun] <= y ? lastRun : 0
        while run &+ 1 < runCount && runStarts[run &+ 1] <= y { run &+= 1 }
        lastRun = run
        let slot = runSlots[run]
        return UnsafeBufferPointer(start: spans + slot &* Self.perRow, count: counts[slot])
    }

    // MARK: Writing

    /// `pixel` over columns `x0..<x1` of `rows` (clipped to the window and the frame): whole
    /// lines kept as a span, the rest written into the band.
    public func fill(columns: Range<Int>, rows: Range<Int>, pixel: UInt32) {
        let rows = rows.clamped(to: window)
        let x0 = max(columns.lowerBound, 0)
        let x1 = min(columns.upperBound, width)
        guard x1 > x0, !rows.isEmpty else { return }
        // The whole lines `a..<b` become the span; the lines the ends fall in are written into
        // the band, the spans there first.
        var a = alignUp(x0)
        var b = alignDown(x1)
        let lines = max(alignDown(x0), 0)..<min(alignUp(x1), width)
        if a >= b { (a, b) = (x1, x1) }
        var run = split(rows)
        while run < runCount && runStarts[run] < rows.upperBound {
            let slot = runSlots[run]
            let runRows = runStarts[run]..<end(ofRun: run)
            cut(slot: slot, rows: runRows, lines, writingOutside: a..<b)
            write(rows: runRows, x0, a, pixel)
            write(rows: runRows, b, x1, pixel)
            if a < b { insert(Span(x0: a, x1: b, pixel: pixel), slot: slot, rows: runRows) }
            run &+= 1
        }
    }

    /// Writes the spans over `columns` of `rows` into the band (widened to whole lines) and cuts
    /// them out of the table: the band then holds those pixels, for drawing that reads them.
    public func materialize(columns: Range<Int>, rows: Range<Int>) {
        let rows = rows.clamped(to: window)
        let x0 = max(columns.lowerBound, 0)
        let x1 = min(columns.upperBound, width)
        guard x1 > x0, !rows.isEmpty else { return }
        let lines = max(alignDown(x0), 0)..<min(alignUp(x1), width)
        var run = split(rows)
        while run < runCount && runStarts[run] < rows.upperBound {
            cut(
                slot: runSlots[run], rows: runStarts[run]..<end(ofRun: run), lines,
                writingOutside: lines.upperBound..<lines.upperBound)
            run &+= 1
        }
    }

    /// Writes every span into the band and empties the table.
    public func materializeAll() {
        for run in 0..<runCount {
            let slot = runSlots[run]
            let rows = runStarts[run]..<end(ofRun: run)
            for index in 0..<counts[slot] {
                let span = spans[slot &* Self.perRow &+ index]
                write(rows: rows, span.x0, span.x1, span.pixel)
            }
            counts[slot] = 0
        }
    }

    // MARK: Runs

    @inline(__always) private func end(ofRun run: Int) -> Int {
        run &+ 1 < runCount ? runStarts[run &+ 1] : window.upperBound
    }

    /// Cuts the runs so that one starts at `rows`' first row and one at its end; returns the
    /// first run of `rows`.
    private func split(_ rows: Range<Int>) -> Int {
        let first = split(at: rows.lowerBound)
        _ = split(at: rows.upperBound)
        return first
    }

    /// Makes a run start at row `y` (in the window), its spans a copy of the run it was in;
    /// returns that run (`runCount` for the window's end).
    private func split(at y: Int) -> Int {
        guard y < window.upperBound else { return runCount }
        var run = 0
        while run &+ 1 < runCount && runStarts[run &+ 1] <= y { run &+= 1 }
        if runStarts[run] == y { return run }
        let slot = runCount
        let from = runSlots[run]
        counts[slot] = counts[from]
        (spans + slot &* Self.perRow).update(from: spans + from &* Self.perRow, count: counts[from])
        var index = runCount
        while index > run &+ 1 {
            runStarts[index] = runStarts[index &- 1]
            runSlots[index] = runSlots[index &- 1]
            index &-= 1
        }
        runStarts[run &+ 1] = y
        runSlots[run &+ 1] = slot
        runCount &+= 1
        return run &+ 1
    }

    /// Removes `columns` (on the line grid, or the row's ends) from a run's spans, writing the
    /// removed parts into the band but for those in `kept` (about to be written over). A span cut
    /// in two whose second part finds no room has that part written into the band instead.
    private func cut(slot: Int, rows: Range<Int>, _ columns: Range<Int>, writingOutside kept: Range<Int>) {
        let base = spans + slot &* Self.perRow
        let x0 = columns.lowerBound
        let x1 = columns.upperBound
        var index = 0
        while index < counts[slot] {
            let span = base[index]
            guard span.x0 < x1, x0 < span.x1 else {
                index &+= 1
                continue
            }
            let removed0 = max(span.x0, x0)
            let removed1 = min(span.x1, x1)
            write(rows: rows, removed0, min(removed1, kept.lowerBound), span.pixel)
            write(rows: rows, max(removed0, kept.upperBound), removed1, span.pixel)
            let left = span.x0 < x0 ? Span(x0: span.x0, x1: x0, pixel: span.pixel) : nil
            let right = x1 < span.x1 ? Span(x0: x1, x1: span.x1, pixel: span.pixel) : nil
            switch (left, right) {
            case (let left?, let right?):
                base[index] = left
                insert(right, slot: slot, rows: rows)
                index &+= 1
            case (let left?, nil):
                base[index] = left
                index &+= 1
            case (nil, let right?):
                base[index] = right
                index &+= 1
            case (nil, nil):
                remove(at: index, slot: slot)
            }
        }
    }

    /// Inserts `span` (overlapping none of the run's) in order; written into the band when the
    /// run is full.
    private func insert(_ span: Span, slot: Int, rows: Range<Int>) {
        let base = spans + slot &* Self.perRow
        let count = counts[slot]
        guard count < Self.perRow else {
            write(rows: rows, span.x0, span.x1, span.pixel)
            return
        }
        var index = count
        while index > 0 && base[index &- 1].x0 > span.x0 {
            base[index] = base[index &- 1]
            index &-= 1
        }
        base[index] = span
        counts[slot] = count &+ 1
    }

    private func remove(at index: Int, slot: Int) {
        let base = spans + slot &* Self.perRow
        let count = counts[slot]
        var at = index
        while at &+ 1 < count {
            base[at] = base[at &+ 1]
            at &+= 1
        }
        counts[slot] = count &- 1
    }

    /// Writes columns `x0..<x1` of `rows` into the band (CFill: wide rows through the C
    /// library's `wmemset`, a few pixels with 16-byte stores in place).
    @inline(__always) private func write(rows: Range<Int>, _ x0: Int, _ x1: Int, _ pixel: UInt32) {
        guard let frameBase, x1 > x0, !rows.isEmpty else { return }
        marquee_fill_box32(frameBase + (rows.lowerBound &* stride &+ x0), stride, pixel, x1 &- x0, rows.count)
    }

    /// The first line edge at or after `x`.
    @inline(__always) func alignUp(_ x: Int) -> Int { alignDown(x &+ linePixels &- 1) }

    /// The last line edge at or before `x` (`linePixels` is a power of two).
    @inline(__always) func alignDown(_ x: Int) -> Int { x &- ((x &- phase) & (linePixels &- 1)) }
}
