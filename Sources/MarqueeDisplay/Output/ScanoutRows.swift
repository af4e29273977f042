import MarqueeCore

/// Which frame rows each scan-out buffer lacks, from what the renderer says it wrote: no pixel is
/// read. The renderer keeps one record per target and returns the bands of rows it wrote into the
/// shadow frame since that frame's last present (`Renderer.render`); a scan-out buffer last
/// written frames ago lacks every row written since, so each present adds the frame's bands to
/// every buffer's pending bands, and writing a buffer clears its own.
///
/// Pending rows are kept as bands per buffer (`RowBands`: a few, inline, the closest joined past
/// the cap), so a clock at the top and a marquee at the bottom stay two bands, not the screen
/// between them.
struct ScanoutRows {
    /// Per buffer, the frame rows written since the buffer last received the frame.
    private var pending: [RowBands]
    let rows: Int

    /// Every buffer starts lacking every row (its contents are unknown).
    init(rows: Int, buffers: Int) {
        self.rows = rows
        pending = [RowBands](repeating: RowBands(0..<rows), count: buffers)
    }

    /// The renderer wrote `changed` into the shadow frame: every buffer lacks those rows.
    mutating func add(_ changed: RowBands) {
        let changed = changed.clamped(to: 0..<rows)
        guard !changed.isEmpty else { return }
        for index in pending.indices { pending[index].formUnion(changed) }
    }

    /// The rows buffer `index` lacks.
    func lacking(inBuffer index: Int) -> RowBands { pending[index] }

    /// Buffer `index` now holds the frame.
    mutating func written(buffer index: Int) { pending[index] = RowBands() }

    /// Buffer `index` holds something else (cleared, or written by someone else).
    mutating func forget(buffer index: Int) { pending[index] = RowBands(0..<rows) }
}
