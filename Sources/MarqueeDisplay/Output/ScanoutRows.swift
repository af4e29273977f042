/// Which frame rows each scan-out buffer lacks, from what the renderer says it wrote: no pixel is
/// read. The renderer keeps one record per target and returns the rows it wrote into the shadow
/// frame since that frame's last present (`Renderer.render`); a scan-out buffer last written
/// frames ago lacks every row written since, so each present adds the frame's rows to every
/// buffer's pending rows, and writing a buffer clears its own.
///
/// Pending rows are kept as one covering range per buffer: the renderer reports one range a
/// frame, and two frames' ranges seldom leave a gap worth a second copy loop.
struct ScanoutRows {
    /// Per buffer, the frame rows written since the buffer last received the frame.
    private var pending: [Range<Int>]
    let rows: Int

    /// Every buffer starts lacking every row (its contents are unknown).
    init(rows: Int, buffers: Int) {
        self.rows = rows
        pending = [Range<Int>](repeating: 0..<rows, count: buffers)
    }

    /// The renderer wrote `changed` into the shadow frame: every buffer lacks those rows.
    mutating func add(_ changed: Range<Int>) {
        let changed = changed.clamped(to: 0..<rows)
        guard !changed.isEmpty else { return }
        for index in pending.indices {
            let old = pending[index]
            pending[index] =
                old.isEmpty
                ? changed : min(old.lowerBound, changed.lowerBound)..<max(old.upperBound, changed.upperBound)
        }
    }

    /// The rows buffer `index` lacks.
    func lacking(inBuffer index: Int) -> Range<Int> { pending[index] }

    /// Buffer `index` now holds the frame.
    mutating func written(buffer index: Int) { pending[index] = 0..<0 }

    /// Buffer `index` holds something else (cleared, or written by someone else).
    mutating func forget(buffer index: Int) { pending[index] = 0..<rows }
}
