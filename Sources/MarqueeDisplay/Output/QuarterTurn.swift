import CPack565
import MarqueeCore

/// A quarter turn of frame rows into scan-out memory. Four frame columns become four panel rows:
/// frame rows are read four pixels at a time and transposed 4x4 in SIMD registers (shuffles only),
/// and each panel row receives a whole 64-byte line at once, in consecutive stores from registers
/// (16 frame rows in the 32-bit formats, 32 in RGB565): write-combined scan-out memory (DRM dumb
/// buffers) then flushes full lines in one burst. The 16-bit formats' line step, conversion
/// included, is CPack565's C (eight columns at once with AVX2); the tiles and edges stay here.
///
/// The order is what makes it fast: a band of frame rows is cut into tiles of columns, and in a
/// tile a line's worth of frame rows is turned across all its columns before the next, so the
/// frame is read row after row (16 or 32 rows side by side, each cache line read once, whole)
/// and the tile's panel rows are written a line each, in turn. Going down four columns first
/// (the tile's rows for each strip of four columns), through a staging buffer, as this did
/// before, took 1.5 times as long in `bench --scanout` and twice as long with the destination
/// in cache (docs/performance.md, "Quarter turns line by line").
///
/// Lines start on the buffer's cache lines, those of its first row, and of every row where the
/// pitch is a multiple of 64 bytes; frame rows before the first whole line and after the last go
/// by single 4x4 blocks, and pixels outside whole blocks one by one.
enum QuarterTurn {
    /// Bytes of one panel row written in one go: a cache line.
    static let lineBytes = 64
    /// Frame rows a band holds (a multiple of the line's rows in every format).
    static let bandRows = 32
    /// Frame columns (panel rows) a tile holds: the panel rows written in turn while a line's
    /// frame rows are read. `bench --scanout` at 1080p put tiles of 128 to 512 columns and bands
    /// of 32 or 64 rows within the spread of each other, and tiles of 32 columns 1.3 times
    /// slower; bands of 32 rows, the fewest that hold a whole line in every format, were kept.
    static let tileColumns = 128

    /// Copies frame rows `rows` (all columns) turned clockwise (`clockwise`) or counter-clockwise.
    /// With `carry`, 16-bit lines that straddle cache lines are written a whole cache line at a
    /// time, across bands and across calls (`TurnCarry`); the caller finishes the carry.
    static func copy<Encoding: PixelEncoding>(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, clockwise: Bool, carry: TurnCarry?,
        as _: Encoding.Type
    ) {
        let source = UnsafePointer(frame.baseAddress)
        let sourceStride = frame.stride
        let frameWidth = frame.width
        let frameHeight = frame.height
        let wordSize = MemoryLayout<Encoding.Word>.size
        let bytesPerRow = surface.bytesPerRow
        let base = surface.base
        // Whole lines are streamed past the cache when their stores are aligned (StreamingStore).
        let streaming = StreamingStore.allowed(base: base, bytesPerRow: bytesPerRow)
        let bgr: Int32 = Encoding.self == BGR565Encoding.self ? 1 : 0
        let avx2 = ProcessorFeatures.avx2
        // Clockwise, frame (x, y) lands on panel (frameHeight - 1 - y, x); counter-clockwise, on
        // panel (y, frameWidth - 1 - x). Frame column x is panel row `panelRow(x)`, and a run of
        // frame rows y..<y + n lands, in the panel row's order, at panel x `panelX(y, n)`.
        @inline(__always) func panelRow(_ x: Int) -> UnsafeMutableRawPointer {
            base + (clockwise ? x : frameWidth &- 1 &- x) &* bytesPerRow
        }
        @inline(__always) func panelX(_ y: Int, _ count: Int) -> Int {
            clockwise ? frameHeight &- y &- count : y
        }
        @inline(__always) func copyPixel(x: Int, y: Int) {
            panelRow(x).storeBytes(
                of: Encoding.encode(source[y &* sourceStride &+ x]), toByteOffset: panelX(y, 1) &* wordSize,
                as: Encoding.Word.self)
        }
        // The frame rows that fill one line of a panel row, and the first of them from which
        // lines start on the buffer's cache lines.
        let lineRows = lineBytes / wordSize
        let firstLine = firstLineRow(
            from: rows.lowerBound, frameHeight: frameHeight, base: base, wordSize: wordSize, clockwise: clockwise)
        // 16-bit rows that start on 16 bytes but not on cache lines (fbdev's 2160-byte rows at 1080
        // pixels) carry each line's second cache line over to the next band, which completes it.
        let carrying =
            carry != nil && wordSize == 2 && !streaming && Int(bitPattern: base) % 16 == 0 && bytesPerRow % 16 == 0
        let goesOn =
            carrying && firstLine == rows.lowerBound
            && carry!.continues(
                base: base, bytesPerRow: bytesPerRow, clockwise: clockwise, frameWidth: frameWidth,
                row: rows.lowerBound, lineOffset: panelX(rows.lowerBound, lineRows) &* wordSize)
        if !goesOn { carry?.finish() }
        let slots: UnsafeMutablePointer<CChar>? =
            carrying ? carry!.slots(columns: frameWidth).assumingMemoryBound(to: CChar.self) : nil
        // Lines from this row on find the previous band's lines in the slots.
        let runStart = goesOn ? Int.min : firstLine
        var lastLineRow: Int?

        /// Frame rows top..<bottom, in tiles of columns: whole lines from `top` when `lines`,
        /// then 4x4 blocks, then single pixels.
        func band(_ top: Int, _ bottom: Int, lines: Bool) {
            let linesEnd = lines ? top &+ (bottom &- top) / lineRows &* lineRows : top
            let blocksEnd = linesEnd &+ (bottom &- linesEnd) / 4 &* 4
            if linesEnd > top { lastLineRow = linesEnd &- lineRows }
            var left = 0
            while left < frameWidth {
                let right = min(left &+ tileColumns, frameWidth)
                let stripsEnd = left &+ (right &- left) / 4 &* 4
                var y = top
                while y < linesEnd {
                    var x = left
                    // The 16-bit formats eight columns a step (CPack565: AVX2 where there is).
                    while lineRows == 32 && x &+ 8 <= stripsEnd {
                        turnLine565(x: x, y: y)
                        x &+= 8
                    }
                    while x < stripsEnd {
                        turnLine(x: x, y: y)
                        x &+= 4
                    }
                    y &+= lineRows
                }
                while y < blocksEnd {
                    var x = left
                    while x < stripsEnd {
                        turnBlock(x: x, y: y)
                        x &+= 4
                    }
                    y &+= 4
                }
                while y < bottom {
                    for x in left..<stripsEnd { copyPixel(x: x, y: y) }
                    y &+= 1
                }
                for x in stripsEnd..<right {
                    for y in top..<bottom { copyPixel(x: x, y: y) }
                }
                left = right
            }
        }

        /// Four frame columns from x, four frame rows from y: one 4x4 block, a store per panel row.
        @inline(__always) func turnBlock(x: Int, y: Int) {
            let columns = Transpose.columns(
                of: source + (y &* sourceStride &+ x), stride: sourceStride, reversed: clockwise)
            let offset = panelX(y, 4) &* wordSize
            panelRow(x).storeBytes(of: Encoding.encode(columns.0), toByteOffset: offset, as: SIMD4<Encoding.Word>.self)
            panelRow(x &+ 1).storeBytes(
                of: Encoding.encode(columns.1), toByteOffset: offset, as: SIMD4<Encoding.Word>.self)
            panelRow(x &+ 2).storeBytes(
                of: Encoding.encode(columns.2), toByteOffset: offset, as: SIMD4<Encoding.Word>.self)
            panelRow(x &+ 3).storeBytes(
                of: Encoding.encode(columns.3), toByteOffset: offset, as: SIMD4<Encoding.Word>.self)
        }

        /// Eight frame columns from x, a line's frame rows from y, in a 16-bit format.
        @inline(__always) func turnLine565(x: Int, y: Int) {
            let offset = panelX(y, lineRows) &* wordSize
            marquee_turn565_line8(
                source + (y &* sourceStride &+ x), sourceStride, clockwise ? 1 : 0, bgr,
                (panelRow(x) + offset).assumingMemoryBound(to: CChar.self),
                clockwise ? bytesPerRow : -bytesPerRow, streaming ? 1 : 0, slots.map { $0 + x &* 64 },
                y > runStart ? 1 : 0, avx2)
        }

        /// Four frame columns from x, a line's frame rows from y: every panel row's line computed
        /// in registers, then stored front to back, one panel row after the other.
        @inline(__always) func turnLine(x: Int, y: Int) {
            let from = source + (y &* sourceStride &+ x)
            let eight = 8 &* sourceStride
            let offset = panelX(y, lineRows) &* wordSize
            let row0 = panelRow(x) + offset, row1 = panelRow(x &+ 1) + offset
            let row2 = panelRow(x &+ 2) + offset, row3 = panelRow(x &+ 3) + offset
            if lineRows == 16 {
                // The 32-bit formats: each octet is 32 bytes of a panel row. Clockwise the panel
                // row shows the frame rows bottom up: the last octet comes first.
                let a = Transpose.octet(at: from, stride: sourceStride, reversed: clockwise, as: Encoding.self)
                let b = Transpose.octet(at: from + eight, stride: sourceStride, reversed: clockwise, as: Encoding.self)
                let (first, second) = clockwise ? (b, a) : (a, b)
                first.store(second, into: row0, row1, row2, row3, streaming: streaming)
            } else {
                // The 16-bit formats: CPack565's line step (why not Swift's: see there).
                marquee_turn565_line(
                    from, sourceStride, clockwise ? 1 : 0, bgr, row0.assumingMemoryBound(to: UInt16.self),
                    row1.assumingMemoryBound(to: UInt16.self),
                    row2.assumingMemoryBound(to: UInt16.self), row3.assumingMemoryBound(to: UInt16.self),
                    streaming ? 1 : 0, slots.map { $0 + x &* 64 }, y > runStart ? 1 : 0)
            }
        }

        let head = rows.lowerBound..<min(firstLine, rows.upperBound)
        if !head.isEmpty { band(head.lowerBound, head.upperBound, lines: false) }
        var top = firstLine
        while top < rows.upperBound {
            let bottom = min(top &+ bandRows, rows.upperBound)
            band(top, bottom, lines: true)
            top = bottom
        }
        if carrying, let last = lastLineRow {
            // The last lines' second halves wait for the next band, or for `finish()`.
            carry!.hold(
                TurnCarry.Held(
                    base: base, bytesPerRow: bytesPerRow, clockwise: clockwise, frameWidth: frameWidth,
                    lineColumns: frameWidth / 4 &* 4, lineOffset: panelX(last, lineRows) &* wordSize,
                    endRow: last &+ lineRows))
        }
        if streaming || carrying { StreamingStore.fence() }
    }
}

extension QuarterTurn {
    /// The first frame row at or after `row` whose line (the `lineBytes / wordSize` frame rows
    /// from it) starts on a cache line of the buffer's first panel row, and of every row when the
    /// pitch is a multiple of 64 bytes.
    static func firstLineRow(
        from row: Int, frameHeight: Int, base: UnsafeMutableRawPointer, wordSize: Int, clockwise: Bool
    ) -> Int {
        let lineRows = lineBytes / wordSize
        let basePixels = Int(bitPattern: base) % lineBytes / wordSize
        // Clockwise, frame rows g..<g + lineRows land from panel x frameHeight - g - lineRows:
        // aligned when basePixels + frameHeight - g is a multiple of lineRows. Counter-clockwise
        // they land from panel x g.
        let phase = clockwise ? (basePixels + frameHeight) % lineRows : (lineRows - basePixels % lineRows) % lineRows
        return row + (phase - row % lineRows + lineRows) % lineRows
    }
}

/// 4x4 transposes of frame pixels, in shuffles: unpack pairs of rows, then join their halves
/// (SSE2 `unpcklps`/`movlhps`, NEON `zip1`/`zip2`).
enum Transpose {
    /// The four columns of the 4x4 block at `from`, each top down, or bottom up when `reversed`.
    @inline(__always) static func columns(of from: UnsafePointer<UInt32>, stride: Int, reversed: Bool) -> (
        SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>
    ) {
        let row0 = UnsafeRawPointer(from).loadUnaligned(as: SIMD4<UInt32>.self)
        let row1 = UnsafeRawPointer(from + stride).loadUnaligned(as: SIMD4<UInt32>.self)
        let row2 = UnsafeRawPointer(from + 2 &* stride).loadUnaligned(as: SIMD4<UInt32>.self)
        let row3 = UnsafeRawPointer(from + 3 &* stride).loadUnaligned(as: SIMD4<UInt32>.self)
        return reversed ? transposed(row3, row2, row1, row0) : transposed(row0, row1, row2, row3)
    }

    /// Column i of the result is (a[i], b[i], c[i], d[i]).
    @inline(__always) static func transposed(
        _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>
    ) -> (SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>) {
        let abLow = SIMD4(a[0], b[0], a[1], b[1]), abHigh = SIMD4(a[2], b[2], a[3], b[3])
        let cdLow = SIMD4(c[0], d[0], c[1], d[1]), cdHigh = SIMD4(c[2], d[2], c[3], d[3])
        return (
            SIMD4(lowHalf: abLow.lowHalf, highHalf: cdLow.lowHalf),
            SIMD4(lowHalf: abLow.highHalf, highHalf: cdLow.highHalf),
            SIMD4(lowHalf: abHigh.lowHalf, highHalf: cdHigh.lowHalf),
            SIMD4(lowHalf: abHigh.highHalf, highHalf: cdHigh.highHalf)
        )
    }

    /// Eight frame rows of four columns from `from`, turned and encoded: per column, its eight
    /// pixels in the panel row's order (bottom up when `reversed`).
    @inline(__always) static func octet<Encoding: PixelEncoding>(
        at from: UnsafePointer<UInt32>, stride: Int, reversed: Bool, as _: Encoding.Type
    ) -> Octet<Encoding.Word> {
        let top = columns(of: from, stride: stride, reversed: reversed)
        let bottom = columns(of: from + 4 &* stride, stride: stride, reversed: reversed)
        let (first, second) = reversed ? (bottom, top) : (top, bottom)
        return Octet(
            column0: Encoding.encode(SIMD8(lowHalf: first.0, highHalf: second.0)),
            column1: Encoding.encode(SIMD8(lowHalf: first.1, highHalf: second.1)),
            column2: Encoding.encode(SIMD8(lowHalf: first.2, highHalf: second.2)),
            column3: Encoding.encode(SIMD8(lowHalf: first.3, highHalf: second.3)))
    }
}

/// Eight pixels of each of four panel rows, encoded, ready to store.
struct Octet<Word: SIMDScalar> {
    var column0, column1, column2, column3: SIMD8<Word>

    /// Stores this octet then `next` into each of the four panel rows: a line of 64 bytes per
    /// row in the 32-bit formats, front to back.
    @inline(__always) func store(
        _ next: Octet, into row0: UnsafeMutableRawPointer, _ row1: UnsafeMutableRawPointer,
        _ row2: UnsafeMutableRawPointer, _ row3: UnsafeMutableRawPointer, streaming: Bool
    ) {
        let size = MemoryLayout<SIMD8<Word>>.size
        StreamingStore.store(column0, to: row0, streaming: streaming)
        StreamingStore.store(next.column0, to: row0 + size, streaming: streaming)
        StreamingStore.store(column1, to: row1, streaming: streaming)
        StreamingStore.store(next.column1, to: row1 + size, streaming: streaming)
        StreamingStore.store(column2, to: row2, streaming: streaming)
        StreamingStore.store(next.column2, to: row2 + size, streaming: streaming)
        StreamingStore.store(column3, to: row3, streaming: streaming)
        StreamingStore.store(next.column3, to: row3 + size, streaming: streaming)
    }
}
