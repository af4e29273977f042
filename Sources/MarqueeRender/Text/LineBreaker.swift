/// Greedy line breaking over a shaped paragraph: each line takes as many break opportunities as
/// fit in the width; spaces at a line's end hang past it (not measured, not drawn); a segment
/// wider than the line alone is cut between grapheme clusters. Widths come from the paragraph's
/// prefix sums, so breaking is linear in the paragraph's length.
struct LineBreaker {
    let paragraph: ShapedParagraph
    let maximumWidth: Double
    /// Positions where a line may start (ascending, the paragraph's end included).
    private let opportunities: [Int]

    init(_ paragraph: ShapedParagraph, maximumWidth: Double) {
        self.paragraph = paragraph
        self.maximumWidth = maximumWidth
        opportunities = Self.opportunities(paragraph.scalars)
    }

    /// After every run of spaces, and at the paragraph's end.
    private static func opportunities(_ scalars: [UInt32]) -> [Int] {
        var found: [Int] = []
        for position in 1..<max(1, scalars.count) where isSpace(scalars[position - 1]) && !isSpace(scalars[position]) {
            found.append(position)
        }
        found.append(scalars.count)
        return found
    }

    static func isSpace(_ value: UInt32) -> Bool { value == 0x20 || value == 0x09 || value == 0x3000 }

    /// Up to `limit` lines, as ranges of scalars without their hanging spaces. An empty paragraph
    /// is one empty line.
    func lines(limit: Int) -> [Range<Int>] {
        let count = paragraph.scalars.count
        guard count > 0 else { return [0..<0] }
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
            }
            if let end {
                lines.append(start..<trimmed(start, end))
                start = end
            } else {
                // The segment alone is too wide: cut it before the first cluster that would end past
                // the width (at least one cluster stays, so every line makes progress).
                let stop = opportunities[next]
                var cut = start + 1
                while cut < stop, !paragraph.cuttable[cut] { cut += 1 }
                var further = cut
                while further < stop {
                    var after = further + 1
                    while after < stop, !paragraph.cuttable[after] { after += 1 }
                    guard paragraph.width(start..<trimmed(start, after)) <= maximumWidth else { break }
                    further = after
                }
                cut = further
                lines.append(start..<trimmed(start, cut))
                start = cut
            }
        }
        return lines
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
