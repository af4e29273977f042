import CPixman
import MarqueeCore

/// The frame a scan-out buffer holds, as far as the band renderer knows (`Renderer.bandRecords`).
struct BandRecord {
    /// The scan-out buffer (compared by identity).
    let buffer: AnyObject
    var drawn = DrawnFrame.unknown
}

extension Renderer {
    /// Draws `list` for the scan-out buffer `target` without a whole frame in memory: the rows
    /// `target` lacks (those where the frame it holds differs from `list`, per the record the
    /// renderer keeps of each scan-out buffer) are drawn a window at a time into `band`, top to
    /// bottom, and each window is handed to `sink` (the frame view whose rows `window` hold it,
    /// and the window) to be copied into the buffer at once, while it is in the cache.
    ///
    /// `onScreen` is the buffer shown now: when the frame is the one it holds, nothing is drawn
    /// and `target`'s record is left as it was (a display commits nothing for such a frame).
    /// Returns the bands of rows that differ from what `onScreen` holds (all rows when it is
    /// unknown): the damage to give the kernel; empty when nothing differs.
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, through band: BandBuffer,
        sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void
    ) throws(RenderError) -> RowBands {
        try render(
            list, deck: deck, bandsFor: target, onScreen: onScreen, through: band, sink: sink, fill: { _, _ in },
            fillsPlainRows: false)
    }

    /// The same, but when `fillsPlainRows` the runs of at least `plainRunMinimum` frame rows that
    /// no item reaches (the gaps between cards, the margins) are not drawn: `fill` is called with
    /// the background's pixel (as the band would hold it) and the rows, to be written straight
    /// into the scan-out buffer. Those rows are written once instead of filled in the band and
    /// copied.
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, through band: BandBuffer,
        sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void,
        fill: (_ pixel: UInt32, _ rows: Range<Int>) -> Void, fillsPlainRows: Bool
    ) throws(RenderError) -> RowBands {
        let height = band.frameHeight
        guard let tools = try beginFrame(list, deck: deck, width: band.width, height: height) else {
            throw RenderError(.imageCreationFailed, "the renderer has no style")
        }
        var changed = RowBands(0..<height)
        if let onScreen, let shown = bandRecords.firstIndex(where: { $0.buffer === onScreen }) {
            damage.compute(from: bandRecords[shown].drawn, to: wanted)
            if damage.bands.isEmpty { return RowBands() }
            // Kept before the comparison with `target`'s record below overwrites the bands.
            changed = RowBands(damage.bands)
        }
        let record = bandRecordIndex(for: target)
        damage.compute(from: bandRecords[record].drawn, to: wanted)
        swap(&bandRecords[record].drawn, &wanted)
        guard !damage.bands.isEmpty else { return changed }
        startDrawing(list, deck: deck)
        if fillsPlainRows {
            findPlainRuns(of: bandRecords[record].drawn.items, height: height)
        } else {
            plainRuns.removeAll(keepingCapacity: true)
        }
        let background = SolidFill.pixel(pixman_color_t(list.background))
        var first = true
        do {
            for damaged in damage.bands {
                let rows = damaged.clamped(to: 0..<height)
                var top = rows.lowerBound
                var run = 0
                while top < rows.upperBound {
                    // Plain runs are sorted: those ending above `top` are passed for good.
                    while run < plainRuns.count && plainRuns[run].upperBound <= top { run += 1 }
                    var plainStart = rows.upperBound
                    if run < plainRuns.count {
                        if plainRuns[run].lowerBound <= top {
                            let plain = top..<min(rows.upperBound, plainRuns[run].upperBound)
                            fill(background, plain)
                            top = plain.upperBound
                            continue
                        }
                        plainStart = min(plainStart, plainRuns[run].lowerBound)
                    }
                    // The damaged rows of one grid window up to the next plain run: every window
                    // starts on the grid, so a scroll's (whole-frame) damage is drawn and copied
                    // in whole bands where no plain run cuts it.
                    let index = band.index(ofRow: top)
                    let window = top..<min(plainStart, band.window(index).upperBound)
                    let (frame, image) = try band.view(index)
                    image.clip(toRows: window)
                    defer { image.clip(toRows: nil) }
                    try draw(
                        list, deck: deck, rows: window, onto: image, drawn: bandRecords[record].drawn,
                        plansBackground: first, with: tools)
                    first = false
                    sink(frame, window)
                    top = window.upperBound
                }
            }
        } catch {
            bandRecords[record].drawn = .unknown
            throw error
        }
        return changed
    }

    /// The same with plain rows filled, through a band buffer of `rows` rows (its grid moved up by `phase` rows) for
    /// frames of `size` that the renderer keeps (made once per size: two outputs of different
    /// sizes each have theirs).
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, size: PixelSize, rows: Int,
        phase: Int = 0, sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void,
        fill: (_ pixel: UInt32, _ rows: Range<Int>) -> Void, fillsPlainRows: Bool
    ) throws(RenderError) -> RowBands {
        let band: BandBuffer
        if let known = bandBuffers.first(where: {
            $0.width == size.width && $0.frameHeight == size.height && $0.rows == min(rows, size.height)
                && $0.phase == phase % $0.rows
        }) {
            band = known
        } else {
            if bandBuffers.count == 4 { bandBuffers.removeFirst() }
            band = BandBuffer(frameWidth: size.width, frameHeight: size.height, rows: rows, phase: phase)
            bandBuffers.append(band)
        }
        return try render(
            list, deck: deck, bandsFor: target, onScreen: onScreen, through: band, sink: sink, fill: fill,
            fillsPlainRows: fillsPlainRows)
    }

    /// Rows a plain run needs to be written straight into the scan-out buffer: a shorter one
    /// would cut a band's copy into two for a few rows (on a quarter turn, two partial cache
    /// lines on every panel row).
    static let plainRunMinimum = 4

    /// Sets `plainRuns` to the runs of at least `plainRunMinimum` rows of `0..<height` that none
    /// of `items` reaches, top to bottom: there the frame is the background alone. Sorted in
    /// place in reused arrays (a frame holds a few dozen items): no allocation per frame.
    private func findPlainRuns(of items: [DrawnItem], height: Int) {
        plainRuns.removeAll(keepingCapacity: true)
        coveredRows.removeAll(keepingCapacity: true)
        for item in items {
            let rows = item.rows.clamped(to: 0..<height)
            guard !rows.isEmpty else { continue }
            // Insertion by top row: items come mostly in layout order already.
            var at = coveredRows.count
            coveredRows.append(rows)
            while at > 0 && coveredRows[at - 1].lowerBound > rows.lowerBound {
                coveredRows[at] = coveredRows[at - 1]
                at -= 1
            }
            coveredRows[at] = rows
        }
        var top = 0
        for rows in coveredRows {
            if rows.lowerBound - top >= Self.plainRunMinimum { plainRuns.append(top..<rows.lowerBound) }
            top = max(top, rows.upperBound)
        }
        if height - top >= Self.plainRunMinimum { plainRuns.append(top..<height) }
    }

    /// Forgets what every scan-out buffer holds (a new style, new templates).
    func forgetBandRecords() {
        for index in bandRecords.indices { bandRecords[index].drawn = .unknown }
    }

    /// Forgets what `buffer` holds: it was written by someone else or cleared (a modeset).
    public func forgetBands(of buffer: AnyObject) {
        for index in bandRecords.indices where bandRecords[index].buffer === buffer {
            bandRecords[index].drawn = .unknown
        }
    }

    private func bandRecordIndex(for buffer: AnyObject) -> Int {
        if let index = bandRecords.firstIndex(where: { $0.buffer === buffer }) { return index }
        // A few at most: a backend that replaced its buffers (a new size) lets go of the old ones.
        if bandRecords.count == 4 { bandRecords.removeFirst() }
        bandRecords.append(BandRecord(buffer: buffer))
        return bandRecords.count - 1
    }
}
