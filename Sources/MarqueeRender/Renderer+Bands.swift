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
        do {
            if band.halves >= BandCopier.slots, let copier = startedBandCopier() {
                try copier.copying(through: sink) { () throws(RenderError) in
                    try drawWindows(list, deck: deck, record: record, through: band, with: tools) {
                        half, frame, window in
                        if let frame { copier.hand(frame, rows: window, slot: half) } else { half = copier.nextSlot() }
                    }
                }
            } else {
                try drawWindows(list, deck: deck, record: record, through: band, with: tools) { _, frame, window in
                    if let frame { sink(frame, window) }
                }
            }
        } catch {
            bandRecords[record].drawn = .unknown
            throw error
        }
        return changed
    }

    /// Draws the damaged rows window by window into `band`. `each` is called twice a window:
    /// before it is drawn, with no frame, to choose the half of the band to draw into, and after,
    /// with the frame view whose rows `window` the band now holds.
    private func drawWindows(
        _ list: DisplayList, deck: Deck, record: Int, through band: BandBuffer, with tools: Tools,
        each: (_ half: inout Int, _ frame: PixelBuffer?, _ window: Range<Int>) -> Void
    ) throws(RenderError) {
        let height = band.frameHeight
        var first = true
        for damaged in damage.bands {
            let rows = damaged.clamped(to: 0..<height)
            var top = rows.lowerBound
            while top < rows.upperBound {
                // The damaged rows of one grid window: every window starts on the grid, so a
                // scroll's (whole-frame) damage is drawn and copied in whole bands.
                let index = band.index(ofRow: top)
                let window = top..<min(rows.upperBound, band.window(index).upperBound)
                var half = 0
                each(&half, nil, window)
                let (frame, image) = try band.view(index, half: half)
                image.clip(toRows: window)
                defer { image.clip(toRows: nil) }
                try draw(
                    list, deck: deck, rows: window, onto: image, drawn: bandRecords[record].drawn,
                    plansBackground: first, with: tools)
                first = false
                each(&half, frame, window)
                top = window.upperBound
            }
        }
    }

    /// The band copier, started at the first frame that wants it (nil when it is not wanted or
    /// its thread could not start: the renderer then copies each window itself).
    private func startedBandCopier() -> BandCopier? {
        guard copiesBandsBeside else { return nil }
        if bandCopier == nil && !bandCopierFailed {
            bandCopier = BandCopier.start()
            bandCopierFailed = bandCopier == nil
        }
        return bandCopier
    }

    /// The same, through a band buffer of `rows` rows (its grid moved up by `phase` rows) for
    /// frames of `size` that the renderer keeps (made once per size: two outputs of different
    /// sizes each have theirs).
    public func render(
        _ list: DisplayList, deck: Deck, bandsFor target: AnyObject, onScreen: AnyObject?, size: PixelSize, rows: Int,
        phase: Int = 0, sink: (_ frame: PixelBuffer, _ window: Range<Int>) -> Void
    ) throws(RenderError) -> RowBands {
        let band: BandBuffer
        if let known = bandBuffers.first(where: {
            $0.width == size.width && $0.frameHeight == size.height && $0.rows == min(rows, size.height)
                && $0.phase == phase % $0.rows && ($0.halves > 1) == copiesBandsBeside
        }) {
            band = known
        } else {
            if bandBuffers.count == 4 { bandBuffers.removeFirst() }
            band = BandBuffer(
                frameWidth: size.width, frameHeight: size.height, rows: rows, phase: phase,
                halves: copiesBandsBeside ? BandCopier.slots : 1)
            bandBuffers.append(band)
        }
        return try render(list, deck: deck, bandsFor: target, onScreen: onScreen, through: band, sink: sink)
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
