extension UniformBlockRuns {
    /// The card's open fill as one rectangle of blocks (`left..<right`, `top..<bottom`, each
    /// block named by its top-left texel), every one of them uniform and of `commonColor`: on a
    /// card, the fill beside and around its text. Any sample whose block is inside takes that
    /// color exactly, so the compositor blends a frame row's whole crossing of it as one run,
    /// found by dividing the distances to its sides by the walk's steps (`OpenFillSpans`), in
    /// place of a map read and a run every few dozen pixels (where a turned card's drift across
    /// the raster's rows ends the maps' runs).
    struct OpenFill: Equatable {
        let left: Int32
        let top: Int32
        let right: Int32
        let bottom: Int32
    }

    /// Rectangles smaller than this many blocks are not worth a frame row's divisions.
    static let openFillLeastBlocks = 256

    /// The largest rectangle of marked blocks (`isCommon`) in the own map that is built of each
    /// row's longest stretch of them (on a card, its margins and the fill right of its text),
    /// and the largest beside it, built of what those stretches keep outside the first (on a
    /// card, the fill right of a short title, above the body's longer lines). Not always the
    /// largest of all (a row's shorter stretches are not used), which is enough for a card,
    /// whose text leaves one side open. Nil for each that does not reach `openFillLeastBlocks`.
    static func openFills(ownMap map: UnsafePointer<UInt8>, width: Int, height: Int) -> (OpenFill?, OpenFill?) {
        guard width > 1, height > 1 else { return (nil, nil) }
        // On the stack for rasters of ordinary height: the map is built within a frame.
        return withUnsafeTemporaryAllocation(of: (start: Int32, end: Int32).self, capacity: height) { stretches in
            for y in 0..<height { stretches[y] = longestMarkedStretch(map + y * width, count: width) }
            guard let first = largestRectangle(stretches) else { return (nil, nil) }
            // Each row of the first's keeps the longer part of its stretch outside it.
            for y in Int(first.top)..<Int(first.bottom) {
                let (start, end) = stretches[y]
                let before = (start, min(end, first.left))
                let after = (max(start, first.right), end)
                stretches[y] = before.1 - before.0 >= after.1 - after.0 ? before : after
            }
            return (first, largestRectangle(stretches))
        }
    }

    /// The largest rectangle whose every row is within that row's stretch, over consecutive rows.
    private static func largestRectangle(_ stretches: UnsafeMutableBufferPointer<(start: Int32, end: Int32)>)
        -> OpenFill?
    {
        let height = stretches.count
        // Each first row with the rows after it while their stretches still overlap; a first
        // row that cannot beat the best even over all the rows left is skipped.
        var best: OpenFill?
        var bestArea = openFillLeastBlocks - 1
        var steps = 0
        for first in 0..<height {
            var start = stretches[first].start
            var end = stretches[first].end
            if Int(end - start) * (height - first) <= bestArea { continue }
            for last in first..<height {
                start = max(start, stretches[last].start)
                end = min(end, stretches[last].end)
                if end <= start { break }
                let area = Int(end - start) * (last - first + 1)
                if area > bestArea {
                    bestArea = area
                    best = OpenFill(left: start, top: Int32(first), right: end, bottom: Int32(last + 1))
                }
                steps += 1
            }
            // A bound on the search for tall rasters of ragged stretches.
            if steps > 1 << 20 { break }
        }
        return best
    }

    /// The longest stretch of marked blocks in one row of the own map, eight a step where they
    /// are all marked or none is (the marks are the bytes' top bits); an empty stretch when there
    /// is none.
    private static func longestMarkedStretch(_ row: UnsafePointer<UInt8>, count: Int) -> (start: Int32, end: Int32) {
        let marks: UInt64 = 0x8080_8080_8080_8080
        var best = (start: 0, end: 0)
        var start = 0
        var x = 0
        while x < count {
            if x + 8 <= count {
                let bits = UnsafeRawPointer(row + x).loadUnaligned(as: UInt64.self) & marks
                if bits == marks {
                    x += 8
                    continue
                }
                if bits == 0 {
                    if x - start > best.end - best.start { best = (start, x) }
                    x += 8
                    start = x
                    continue
                }
            }
            let stop = min(x + 8, count)
            while x < stop {
                if !isCommon(row[x]) {
                    if x - start > best.end - best.start { best = (start, x) }
                    start = x + 1
                }
                x += 1
            }
        }
        if count - start > best.end - best.start { best = (start, count) }
        return (Int32(best.start), Int32(best.end))
    }
}
