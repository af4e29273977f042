import CUnibreak

/// libunibreak's tables are set up once per process (`init_linebreak`), before the first use.
private let lineBreakTablesReady: Void = init_linebreak()

/// Greedy line breaking over a shaped paragraph at the break opportunities of UAX #14
/// (libunibreak): after spaces, between ideographs, never inside a word or before closing
/// punctuation. Each line takes as many opportunities as fit in the width; spaces at a line's end hang past it (not measured, not drawn); a segment
/// wider than the line alone is cut between grapheme clusters. Widths come from the paragraph's
/// prefix sums, so breaking is linear in the paragraph's length.
struct LineBreaker {
    let paragraph: ShapedParagraph
    let maximumWidth: Double

    init(_ paragraph: ShapedParagraph, maximumWidth: Double) {
        self.paragraph = paragraph
        self.maximumWidth = maximumWidth
    }

    /// Whether the whole paragraph is one line: no character that ends a line (U+2028, a form
    /// feed, ...; "\n" already split the text into paragraphs), no advance that moves back (so
    /// every shorter line is narrower), and the paragraph without its closing spaces fits. The
    /// greedy breaking then takes the last opportunity, the paragraph's end, whatever the others:
    /// a title that fits is not given to libunibreak (a fast scroll lays out a new one for every
    /// card).
    private func fitsWhole(trimmedEnd end: Int) -> Bool {
        guard paragraph.width(0..<end) <= maximumWidth else { return false }
        for value in paragraph.scalars {
            switch value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return false
            default: continue
            }
        }
        let pens = paragraph.penBefore
        for position in 0..<end where pens[position + 1] < pens[position] { return false }
        return true
    }

    /// libunibreak's answer for each character: may a line end after it?
    private static func opportunities(_ scalars: [UInt32]) -> ([Int], Set<Int>) {
        guard scalars.count > 1 else { return ([scalars.count], []) }
        _ = lineBreakTablesReady
        var breaks = [CChar](repeating: 0, count: scalars.count)
        Self.withoutCrashingCharacters(scalars) { text in
            breaks.withUnsafeMutableBufferPointer {
                set_linebreaks_utf32(text.baseAddress, text.count, nil, $0.baseAddress)
            }
        }
        var found: [Int] = []
        var mandatory = Set<Int>()
        for position in 0..<scalars.count - 1 {
            switch Int32(breaks[position]) {
            case LINEBREAK_ALLOWBREAK: found.append(position + 1)
            case LINEBREAK_MUSTBREAK:
                found.append(position + 1)
                mandatory.insert(position + 1)
            default: break
            }
        }
        found.append(scalars.count)
        return (found, mandatory)
    }

    /// `scalars` as libunibreak 1.1 (Debian 12's) can take them. Its class table has no entry for
    /// regional indicators (the halves of a flag, U+1F1E6...U+1F1FF) and it uses U+FFFF as its end
    /// marker: either aborts the process in an assertion. Regional indicators are passed as a
    /// letter, so a flag is never broken inside (nor between two flags in a row, which a line
    /// too narrow for them cuts between grapheme clusters), and U+FFFF as U+FFFD.
    private static func withoutCrashingCharacters(_ scalars: [UInt32], _ body: (UnsafeBufferPointer<UInt32>) -> Void) {
        guard scalars.contains(where: { (0x1F1E6...0x1F1FF).contains($0) || $0 == 0xFFFF }) else {
            scalars.withUnsafeBufferPointer(body)
            return
        }
        let safe = scalars.map { value -> UInt32 in
            (0x1F1E6...0x1F1FF).contains(value) ? 0x41 : value == 0xFFFF ? 0xFFFD : value
        }
        safe.withUnsafeBufferPointer(body)
    }

    static func isSpace(_ value: UInt32) -> Bool { value == 0x20 || value == 0x09 || value == 0x3000 }

    /// Up to `limit` lines, as ranges of scalars without their hanging spaces. An empty paragraph
    /// is one empty line.
    func lines(limit: Int) -> [Range<Int>] {
        let count = paragraph.scalars.count
        guard count > 0 else { return [0..<0] }
        guard limit > 0 else { return [] }
        let whole = trimmed(0, count)
        if fitsWhole(trimmedEnd: whole) { return [0..<whole] }
        return greedyLines(limit: limit)
    }

    /// `lines` without the one-line shortcut: every line as long as the opportunities allow.
    func greedyLines(limit: Int) -> [Range<Int>] {
        let count = paragraph.scalars.count
        guard count > 0 else { return [0..<0] }
        // Positions where a line may start (ascending, the paragraph's end included), and those
        // where a line must end.
        let (opportunities, mandatory) = Self.opportunities(paragraph.scalars)
        var lines: [Range<Int>] = []
        var start = 0
        var next = 0  // the first opportunity after `start`
        while start < count, lines.count < limit {
            while opportunities[next] <= start { next += 1 }
            var end: Int?
            var candidate = next
            while candidate < opportunities.count {
                let stop = opportunities[candidate]
                // Spaces that open a paragraph are kept with the word after them, not a line alone.
                if trimmed(start, stop) == start, stop < count {
                    candidate += 1
                    continue
                }
                guard paragraph.width(start..<trimmed(start, stop)) <= maximumWidth else { break }
                end = stop
                candidate += 1
                if mandatory.contains(stop) { break }
            }
            if let end {
                lines.append(start..<trimmed(start, end))
                start = end
            } else {
                // The segment alone is too wide: cut it before the first cluster that would end past
                // the width (at least one cluster stays, so every line makes progress).
                let stop = opportunities[next]
                var cut = furthestCut(from: start, before: stop, at: paragraph.cuttable)
                if paragraph.width(start..<cut) > maximumWidth {
                    // One grapheme wider than the line: cut it between HarfBuzz clusters instead.
                    cut = furthestCut(from: start, before: stop, at: paragraph.clusterStarts)
                }
                lines.append(start..<trimmed(start, cut))
                start = cut
            }
        }
        return lines
    }

    /// The furthest position allowed by `allowed` in (start, stop] whose line fits, or the first
    /// allowed one when none fits (every line makes progress).
    private func furthestCut(from start: Int, before stop: Int, at allowed: [Bool]) -> Int {
        var cut = start + 1
        while cut < stop, !allowed[cut] { cut += 1 }
        var further = cut
        while further < stop {
            var after = further + 1
            while after < stop, !allowed[after] { after += 1 }
            guard paragraph.width(start..<trimmed(start, after)) <= maximumWidth else { break }
            further = after
        }
        return further
    }

    /// `range` without the spaces that end it.
    private func trimmed(_ start: Int, _ end: Int) -> Int {
        var end = end
        while end > start, Self.isSpace(paragraph.scalars[end - 1]) { end -= 1 }
        return end
    }

    /// `range` shortened, a grapheme cluster at a time, until it fits in `width` and does not end
    /// with a space (the ellipsis goes right after the last word kept).
    func shortened(_ range: Range<Int>, toFit width: Double) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound,
            paragraph.width(range.lowerBound..<end) > width || Self.isSpace(paragraph.scalars[end - 1])
        {
            end -= 1
            while end > range.lowerBound, !paragraph.cuttable[end] { end -= 1 }
        }
        return range.lowerBound..<end
    }
}
