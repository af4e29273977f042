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
    ///
    /// With `spans` (the copy's table: `ConstantSpans`), the plain fills of each window that cover
    /// whole lines of the copy are left in the table for the copy to write, not drawn into `band`.
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, through band: BandBuffer,
        spans: ConstantSpans? = nil, sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void
    ) throws(RenderError) -> RowBands {
        let spans = spans.flatMap { $0.capacity >= band.rows ? $0 : nil }
        let height = band.frameHeight
        guard let tools = try beginFrame(list, deck: deck, width: band.width, height: height) else {
            throw RenderError(.imageCreationFailed, "the renderer has no style")
        }
        var changed = RowBands(0..<height)
        if let onScreen, let shown = bandRecords.firstIndex(where: { $0.buffer === onScreen }) {
            damage.compute(from: bandRecords[shown].drawn, to: wanted, changedRows: changedRows)
            if damage.bands.isEmpty { return RowBands() }
            // Kept before the comparison with `target`'s record below overwrites the bands.
            changed = RowBands(damage.bands)
        }
        let record = bandRecordIndex(for: target)
        damage.compute(from: bandRecords[record].drawn, to: wanted, changedRows: changedRows)
        swap(&bandRecords[record].drawn, &wanted)
        guard !damage.bands.isEmpty else { return changed }
        startDrawing(list, deck: deck)
        var first = true
        do {
            for damaged in damage.bands {
                let rows = damaged.clamped(to: 0..<height)
                var top = rows.lowerBound
                while top < rows.upperBound {
                    // The damaged rows of one grid window: every window starts on the grid, so
                    // a scroll's (whole-frame) damage is drawn and copied in whole bands.
                    let index = band.index(ofRow: top)
                    let window = top..<min(rows.upperBound, band.window(index).upperBound)
                    let (frame, image) = try band.view(index)
                    image.clip(toRows: window)
                    spans?.begin(window: window, of: frame)
                    defer {
                        image.clip(toRows: nil)
                        spans?.end()
                    }
                    try draw(
                        list, deck: deck, rows: window, onto: image, drawn: bandRecords[record].drawn,
                        plansBackground: first, spans: spans, with: tools)
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

    /// The same, through a band buffer of `rows` rows (its grid moved up by `phase` rows) for
    /// frames of `size` that the renderer keeps (made once per size: two outputs of different
    /// sizes each have theirs).
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, size: PixelSize, rows: Int,
        phase: Int = 0, spans: ConstantSpans? = nil, sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void
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
            list, deck: deck, bandsFor: target, onScreen: onScreen, through: band, spans: spans, sink: sink)
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
