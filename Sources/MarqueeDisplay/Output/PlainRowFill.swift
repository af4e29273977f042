import MarqueeCore

/// Frame rows all of one pixel (the background where no item reaches) written straight into
/// scan-out memory, turned and converted as `FrameCopier` would write them: the band renderer
/// neither fills them in its band nor copies them (docs/architecture.md, "Plain rows written
/// once"). The destination is only written, in runs along its rows.
public enum PlainRowFill {
    /// Writes frame rows `rows` (all columns) of `pixel` (XRGB8888, as the frame holds it) into
    /// `surface`, the panel the frame is turned onto by `rotation`.
    static func fill(_ pixel: UInt32, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation) {
        switch surface.format {
        case .xrgb8888: fill(words: XRGB8888Encoding.encode(pixel), rows: rows, to: surface, rotation: rotation)
        case .xbgr8888: fill(words: XBGR8888Encoding.encode(pixel), rows: rows, to: surface, rotation: rotation)
        case .rgb565: fill(words: RGB565Encoding.encode(pixel), rows: rows, to: surface, rotation: rotation)
        case .bgr565: fill(words: BGR565Encoding.encode(pixel), rows: rows, to: surface, rotation: rotation)
        }
    }

    private static func fill<Word: FixedWidthInteger>(
        words word: Word, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation
    ) {
        // The panel rectangle the frame rows land on: whole panel rows unturned or half turned,
        // a run of panel columns on every panel row for a quarter turn (clockwise, frame row y is
        // panel column frameHeight - 1 - y; counter-clockwise, panel column y).
        let frameHeight = rotation.swapsAxes ? surface.width : surface.height
        let rows = rows.clamped(to: 0..<frameHeight)
        guard !rows.isEmpty else { return }
        let panelRows: Range<Int>
        let columns: Range<Int>
        switch rotation {
        case .none: (panelRows, columns) = (rows, 0..<surface.width)
        case .half:
            (panelRows, columns) = (frameHeight - rows.upperBound..<frameHeight - rows.lowerBound, 0..<surface.width)
        case .quarter:
            (panelRows, columns) = (0..<surface.height, frameHeight - rows.upperBound..<frameHeight - rows.lowerBound)
        case .threeQuarters: (panelRows, columns) = (0..<surface.height, rows)
        }
        let wordSize = MemoryLayout<Word>.stride
        // Whole rows contiguous in memory (no padding) are one run.
        if columns.count == surface.width && surface.bytesPerRow == surface.width &* wordSize {
            let start = (surface.base + panelRows.lowerBound &* surface.bytesPerRow).assumingMemoryBound(to: Word.self)
            start.update(repeating: word, count: panelRows.count &* surface.width)
            return
        }
        for y in panelRows {
            let row = (surface.base + y &* surface.bytesPerRow).assumingMemoryBound(to: Word.self)
            (row + columns.lowerBound).update(repeating: word, count: columns.count)
        }
    }
}
