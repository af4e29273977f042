import MarqueeCore

/// Remembers which frame each scan-out buffer holds, row by row, so that only the rows that differ
/// are copied into it. Each row of the rendered frame is reduced to a 64-bit hash; a buffer's
/// row is rewritten when its hash differs from the hash of what was last copied there.
///
/// Hashing reads the frame once (cheap: it is in cached memory, just rendered); it saves writes to
/// scan-out memory, which is write-combined or behind a slow bus. A hash collision would leave one
/// stale row until that row changes again; with 64-bit hashes that is not a practical concern.
///
/// Used by fbdev only, and there only for frames whose bands are a small part of the screen
/// (`measure(_:bands:)`): a marquee's band holds rows its text never reaches, which the hash
/// keeps off the SPI bus; in a scroll every row differs and the hash would find nothing.
final class ScanoutDamage {
    private var frameHashes: [UInt64]
    /// The hashes of the rows each buffer holds, buffer after buffer (`frameHashes.count` each):
    /// one flat array, so that recording a copy is one block copy (an array of arrays was written
    /// row by row through an optional, about 19 K instructions a frame, `bench --scene cards-spi`).
    private var held: [UInt64]
    /// Per buffer: whether `held` says what it holds (false: unknown, copy everything).
    private var known: [Bool]

    /// Frames whose rows were marked changed without being hashed (`measure(_:bands:)`).
    private var unhashedFrames: UInt64 = 0
    /// Lines held back between the bands of a copy (16-bit quarter turns into rows off cache
    /// lines, as fbdev's 2160-byte RGB565 rows are).
    private let carry = TurnCarry()

    init(rows: Int, buffers: Int) {
        frameHashes = [UInt64](repeating: 0, count: rows)
        held = [UInt64](repeating: 0, count: rows * buffers)
        known = [Bool](repeating: false, count: buffers)
    }

    /// Hashes the rows of `bands` when they are at most half the frame; otherwise marks them
    /// changed without reading them (a scroll: every row differs, and hashing a whole frame found
    /// nothing, at about a quarter of an SPI frame's render and scan-out, `bench --scene
    /// cards-spi`). A marked row gets a value no hash and no other frame's mark takes (the
    /// frame's number, with the row), so every buffer that did not receive this frame differs
    /// there, and a buffer that did matches until the row is written again.
    func measure(_ frame: PixelBuffer, bands: RowBands) {
        let bands = bands.clamped(to: 0..<frameHashes.count)
        if bands.rowCount * 2 <= frameHashes.count {
            for band in bands { measure(frame, rows: band) }
            return
        }
        unhashedFrames &+= 1
        let mark = unhashedFrames << 24
        for band in bands { for y in band { frameHashes[y] = mark | UInt64(y) } }
    }

    /// Hashes the rows of the frame just rendered that the renderer wrote (`rows`; all of them by
    /// default); the others keep the hashes they had, the frame being unchanged there.
    func measure(_ frame: PixelBuffer, rows: Range<Int>? = nil) {
        precondition(frame.height == frameHashes.count, "ScanoutDamage: frame height changed")
        let base = UnsafeRawPointer(frame.baseAddress)
        for y in (rows ?? 0..<frame.height).clamped(to: 0..<frame.height) {
            frameHashes[y] = Self.hash(base + y * frame.stride * 4, pixels: frame.width)
        }
    }

    /// The runs of frame rows that buffer `index` lacks.
    func changedRows(inBuffer index: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        forEachChangedRun(inBuffer: index) { runs.append($0) }
        return runs
    }

    /// Calls `body` with each run of frame rows that buffer `index` lacks, in order (no array:
    /// this runs on every frame).
    func forEachChangedRun(inBuffer index: Int, _ body: (Range<Int>) -> Void) {
        let rows = frameHashes.count
        guard known[index] else {
            body(0..<rows)
            return
        }
        held.withUnsafeBufferPointer { all in
            frameHashes.withUnsafeBufferPointer { now in
                let old = all.baseAddress! + index * rows
                var start: Int?
                for y in 0..<rows {
                    if now[y] != old[y] {
                        if start == nil { start = y }
                    } else if let first = start {
                        body(first..<y)
                        start = nil
                    }
                }
                if let first = start { body(first..<rows) }
            }
        }
    }

    /// Copies the rows of `frame` (just measured) that buffer `index` lacks into `surface`, turned
    /// by `rotation`, and records that the buffer now holds the frame.
    func copyChangedRows(of frame: PixelBuffer, into surface: ScanoutSurface, buffer index: Int, rotation: Rotation) {
        if rotation.swapsAxes {
            // Frame rows are panel columns: every run reaches every panel row, so runs are
            // joined into a few bands (the closest first) rather than copied one thin strip each.
            var bands = RowBands()
            forEachChangedRun(inBuffer: index) { bands.insert($0) }
            for band in bands { FrameCopier.copy(frame, rows: band, to: surface, rotation: rotation, carry: carry) }
            carry.finish()
        } else {
            forEachChangedRun(inBuffer: index) { run in
                FrameCopier.copy(frame, rows: run, to: surface, rotation: rotation)
            }
        }
        recordCopy(toBuffer: index)
    }

    /// Buffer `index` now holds the frame last measured.
    func recordCopy(toBuffer index: Int) {
        let rows = frameHashes.count
        held.withUnsafeMutableBufferPointer { all in
            frameHashes.withUnsafeBufferPointer { now in
                (all.baseAddress! + index * rows).update(from: now.baseAddress!, count: rows)
            }
        }
        known[index] = true
    }

    /// Buffer `index` holds something else (cleared, or written by someone else).
    func forget(buffer index: Int) { known[index] = false }

    /// Four independent multiply-xor lanes over the row's 64-bit words, so the multiplies overlap.
    static func hash(_ row: UnsafeRawPointer, pixels: Int) -> UInt64 {
        let prime: UInt64 = 0x9E37_79B9_7F4A_7C15
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (1, 2, 3, 4)
        let words = row.assumingMemoryBound(to: UInt64.self)
        let wordCount = pixels / 2
        var index = 0
        while index + 4 <= wordCount {
            lanes.0 = (lanes.0 ^ words[index]) &* prime
            lanes.1 = (lanes.1 ^ words[index + 1]) &* prime
            lanes.2 = (lanes.2 ^ words[index + 2]) &* prime
            lanes.3 = (lanes.3 ^ words[index + 3]) &* prime
            index += 4
        }
        while index < wordCount {
            lanes.0 = (lanes.0 ^ words[index]) &* prime
            index += 1
        }
        if pixels % 2 == 1 {
            lanes.1 = (lanes.1 ^ UInt64(row.load(fromByteOffset: (pixels - 1) * 4, as: UInt32.self))) &* prime
        }
        var result = lanes.0 ^ (lanes.1 &* 31) ^ (lanes.2 &* 961) ^ (lanes.3 &* 29791)
        result ^= result >> 29
        return result
    }
}
