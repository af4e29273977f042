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
public final class ConstantSpans {
    public struct Span: Equatable {
        public var x0: Int
        public var x1: Int
        public var pixel: UInt32
    }

    /// Spans a row holds at most.
    public static let perRow = 8
    /// Rows of the window, at most (the band's height).
    public let capacity: Int
    public let linePixels: Int
    public let phase: Int
    // Read for every row of every fill: without `unchecked`, each read of a class's stored
    // variable is an exclusivity check at run time (a quarter of the table's time, perf).
    /// The frame rows of the window the table holds now.
    @exclusivity(unchecked) public private(set) var window: Range<Int> = 0..<0
    /// The frame view the band renderer draws into (its rows in `window` are backed).
    @exclusivity(unchecked) public private(set) var frameBase: UnsafeMutablePointer<UInt32>?
    @exclusivity(unchecked) private var stride = 0
    @exclusivity(unchecked) private(set) var width = 0
    private let counts: UnsafeMutablePointer<Int>
    private let spans: UnsafeMutablePointer<Span>

    public init(rows: Int, linePixels: Int = 16, phase: Int = 0) {
        precondition(rows > 0 && linePixels > 0, "ConstantSpans: empty")
        precondition(linePixels & (linePixels - 1) == 0, "ConstantSpans: lines of \(linePixels) pixels")
        capacity = rows
        self.linePixels = linePixels
        self.phase = ((phase % linePixels) + linePixels) % linePixels
        counts = .allocate(capacity: rows)
        counts.initialize(repeating: 0, count: rows)
        spans = .allocate(capacity: rows * Self.perRow)
        spans.initialize(repeating: Span(x0: 0, x1: 0, pixel: 0), count: rows * Self.perRow)
    }

    deinit {
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
        counts.update(repeating: 0, count: window.count)
    }

    /// Ends the window: the copy that follows takes every row from the band.
    public func end() {
        window = 0..<0
        frameBase = nil
    }

    /// Whether any row of the window holds a span.
    public var isEmpty: Bool { (0..<window.count).allSatisfy { counts[$0] == 0 } }

    /// The spans of frame row `y`, left to right (none outside the window).
    @inline(__always) public func spans(ofRow y: Int) -> UnsafeBufferPointer<Span> {
        guard window.contains(y) else { return UnsafeBufferPointer(start: spans, count: 0) }
        let row = y &- window.lowerBound
        return UnsafeBufferPointer(start: spans + row &* Self.perRow, count: counts[row])
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
        // the band, the spans there first (worked out once: a division is slow, and this runs
        // for every row of every box).
        var a = alignUp(x0)
        var b = alignDown(x1)
        let lines = max(alignDown(x0), 0)..<min(alignUp(x1), width)
        if a >= b { (a, b) = (x1, x1) }
        for y in rows {
            cut(row: y, lines, writingOutside: a..<b)
            write(row: y, x0, a, pixel)
            write(row: y, b, x1, pixel)
            if a < b { insert(Span(x0: a, x1: b, pixel: pixel), row: y) }
        }
    }

    /// Writes the spans over `columns` of `rows` into the band (widened to whole lines) and cuts
    /// them out of the table: the band then holds those pixels, for drawing that reads them.
    public func materialize(columns: Range<Int>, rows: Range<Int>) {
        let rows = rows.clamped(to: window)
        let x0 = max(columns.lowerBound, 0)
        let x1 = min(columns.upperBound, width)
        guard x1 > x0 else { return }
        let lines = max(alignDown(x0), 0)..<min(alignUp(x1), width)
        for y in rows { cut(row: y, lines, writingOutside: lines.upperBound..<lines.upperBound) }
    }

    /// Writes every span into the band and empties the table.
    public func materializeAll() {
        for y in window {
            let row = y &- window.lowerBound
            for index in 0..<counts[row] {
                let span = spans[row &* Self.perRow &+ index]
                write(row: y, span.x0, span.x1, span.pixel)
            }
            counts[row] = 0
        }
    }

    // MARK: Rows

    /// Removes `columns` (on the line grid, or the row's ends) from the row's spans, writing the
    /// removed parts into the band but for those in `kept` (about to be written over). A span cut
    /// in two whose second part finds no room is written whole instead.
    private func cut(row y: Int, _ columns: Range<Int>, writingOutside kept: Range<Int>) {
        let row = y &- window.lowerBound
        let base = spans + row &* Self.perRow
        let x0 = columns.lowerBound
        let x1 = columns.upperBound
        var index = 0
        while index < counts[row] {
            let span = base[index]
            guard span.x0 < x1, x0 < span.x1 else {
                index &+= 1
                continue
            }
            let removed0 = max(span.x0, x0)
            let removed1 = min(span.x1, x1)
            write(row: y, removed0, min(removed1, kept.lowerBound), span.pixel)
            write(row: y, max(removed0, kept.upperBound), removed1, span.pixel)
            let left = span.x0 < x0 ? Span(x0: span.x0, x1: x0, pixel: span.pixel) : nil
            let right = x1 < span.x1 ? Span(x0: x1, x1: span.x1, pixel: span.pixel) : nil
            switch (left, right) {
            case (let left?, let right?):
                base[index] = left
                if counts[row] < Self.perRow {
                    insert(right, row: y)
                } else {
                    write(row: y, right.x0, right.x1, right.pixel)
                }
                index &+= 1
            case (let left?, nil):
                base[index] = left
                index &+= 1
            case (nil, let right?):
                base[index] = right
                index &+= 1
            case (nil, nil):
                remove(at: index, row: row)
            }
        }
    }

    /// Inserts `span` (overlapping none of the row's) in order; written into the band when the
    /// row is full.
    private func insert(_ span: Span, row y: Int) {
        let row = y &- window.lowerBound
        let base = spans + row &* Self.perRow
        let count = counts[row]
        guard count < Self.perRow else {
            write(row: y, span.x0, span.x1, span.pixel)
            return
        }
        var index = count
        while index > 0 && base[index &- 1].x0 > span.x0 {
            base[index] = base[index &- 1]
            index &-= 1
        }
        base[index] = span
        counts[row] = count &+ 1
    }

    private func remove(at index: Int, row: Int) {
        let base = spans + row &* Self.perRow
        let count = counts[row]
        var at = index
        while at &+ 1 < count {
            base[at] = base[at &+ 1]
            at &+= 1
        }
        counts[row] = count &- 1
    }

    /// Writes pixels into the band: the C library's `wmemset` (the widest stores the processor
    /// has), as the renderer's own fills (`SolidFill`); a few pixels in place.
    @inline(__always) private func write(row y: Int, _ x0: Int, _ x1: Int, _ pixel: UInt32) {
        guard let frameBase, x1 > x0 else { return }
        let start = frameBase + (y &* stride &+ x0)
        let count = x1 &- x0
        guard count > 16 else {
            for index in 0..<count { start[index] = pixel }
            return
        }
        marquee_core_fill32(start, pixel, count)
    }

    /// The first line edge at or after `x`.
    @inline(__always) func alignUp(_ x: Int) -> Int { alignDown(x &+ linePixels &- 1) }

    /// The last line edge at or before `x` (`linePixels` is a power of two).
    @inline(__always) func alignDown(_ x: Int) -> Int { x &- ((x &- phase) & (linePixels &- 1)) }
}
