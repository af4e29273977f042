import MarqueeCore

/// A glyph placed on a line: `x` is the pen position from the line's left edge plus the glyph's
/// own offset, `y` its offset up from the baseline (marks above a base), `font` the face number
/// (`FontFace.face(numbered:)`, 0 is the face laid out with), `cluster` the offset in Unicode
/// scalars, within its paragraph, of the first character it shows.
public struct PlacedGlyph: Hashable, Sendable {
    public var index: UInt32
    public var x: Double
    public var y: Double = 0
    public var font: UInt16 = 0
    public var cluster: Int = 0
}

/// One laid-out line of text, glyphs in visual order (left to right).
public struct TextLine: Equatable, Sendable {
    public var glyphs: [PlacedGlyph] = []
    public var width: Double = 0
    /// The direction of the paragraph the line belongs to: where `start` and `end` are.
    public var isRightToLeft = false

    public init(glyphs: [PlacedGlyph] = [], width: Double = 0, isRightToLeft: Bool = false) {
        self.glyphs = glyphs
        self.width = width
        self.isRightToLeft = isRightToLeft
    }
}

extension TextLine {
    /// Pixels from a box's left edge to this line's left edge, in a box `width` wide: `start` is
    /// the right edge for a line of a right-to-left paragraph, `end` the left.
    public func offset(in width: Double, align: TextAlign) -> Double {
        let spare = width - self.width
        switch align {
        case .left: return 0
        case .right: return spare
        case .center: return spare / 2
        case .start: return isRightToLeft ? spare : 0
        case .end: return isRightToLeft ? 0 : spare
        }
    }
}

/// Lays out UTF-8 text for one face: each paragraph ("\n" separates them) is shaped by HarfBuzz
/// with font fallback (`ShapedParagraph`), broken greedily into lines at break opportunities (a
/// word wider than the line breaks between grapheme clusters), and the last line ends with "…"
/// at the paragraph's logical end when the text does not fit in `maximumLines`. Results are
/// cached on the face by text and box, so a text seen before is not shaped again.
public struct TextLayout {
    private static let ellipsis = "\u{2026}"

    /// `moreFollows` says that something after this text (a card's body that has no room) is not
    /// shown: the last line then ends with "…" even when the text itself fits.
    /// With `marksTruncation` false, text that does not fit is cut without "…" (`clip` and
    /// `marquee` overflow).
    public static func lines(
        _ text: String, face: FontFace, maximumWidth: Double, maximumLines: Int, moreFollows: Bool = false,
        direction: TextDirection = .auto, marksTruncation: Bool = true
    ) -> [TextLine] {
        guard maximumLines > 0, maximumWidth > 0 else { return [] }
        let key = LayoutCache.Key(
            text: text, width: maximumWidth, lines: maximumLines, moreFollows: moreFollows, direction: direction,
            marksTruncation: marksTruncation)
        if let known = face.layoutCache[key] { return known }
        let lines = layOut(
            text, face: face, maximumWidth: maximumWidth, maximumLines: maximumLines, moreFollows: moreFollows,
            direction: direction, marksTruncation: marksTruncation)
        face.layoutCache[key] = lines
        return lines
    }

    private static func layOut(
        _ text: String, face: FontFace, maximumWidth: Double, maximumLines: Int, moreFollows: Bool,
        direction: TextDirection, marksTruncation: Bool
    ) -> [TextLine] {
        var cut: [(paragraph: ShapedParagraph, range: Range<Int>)] = []
        var truncated = false
        // Text without a line feed is one paragraph: `split` compares every Character (grapheme
        // breaking), a tenth of a new card's resolution for a title of a few words.
        let paragraphs =
            text.utf8.contains(0x0A) ? text.split(separator: "\n", omittingEmptySubsequences: false) : [text[...]]
        for (number, source) in paragraphs.enumerated() {
            let paragraph = ShapedParagraph(source, face: face, direction: direction)
            let breaker = LineBreaker(paragraph, maximumWidth: maximumWidth)
            for range in breaker.lines(limit: maximumLines - cut.count + 1) {
                if cut.count == maximumLines {
                    truncated = true
                    break
                }
                cut.append((paragraph, range))
            }
            if cut.count == maximumLines {
                truncated = truncated || number < paragraphs.count - 1
                break
            }
        }
        var lines = cut.map { line($0.paragraph, $0.range, ellipsis: nil) }
        if marksTruncation, truncated || moreFollows, let last = cut.last {
            let mark = ShapedParagraph(ellipsis, face: face, direction: last.paragraph.baseLevel == 1 ? .rtl : .ltr)
            let markWidth = mark.width(0..<mark.scalars.count)
            let breaker = LineBreaker(last.paragraph, maximumWidth: maximumWidth)
            let kept = breaker.shortened(last.range, toFit: maximumWidth - markWidth)
            lines[lines.count - 1] = line(last.paragraph, kept, ellipsis: mark)
        }
        return lines
    }

    /// The glyphs of `range` in visual order: the runs (and pieces of runs) it meets, reordered by
    /// bidi level (UAX #9, rule L2), each run's glyphs in HarfBuzz's order (already visual). An
    /// ellipsis is a run at the paragraph's level after the last character, so it lands at the
    /// line's right end in a left-to-right paragraph and its left end in a right-to-left one.
    static func line(_ paragraph: ShapedParagraph, _ range: Range<Int>, ellipsis: ShapedParagraph?) -> TextLine {
        var pieces: [(glyphs: ArraySlice<ShapedGlyph>, level: UInt8, clusters: Range<Int>?)] = []
        for run in paragraph.runs where run.scalars.overlaps(range) {
            pieces.append((paragraph.glyphs[run.glyphs], run.level, run.scalars.clamped(to: range)))
        }
        if let ellipsis {
            // nil clusters: every glyph of the piece is kept.
            pieces.append((ellipsis.glyphs[...], paragraph.baseLevel, nil))
        }
        // L2: from the highest level down to the lowest odd one, reverse every sequence of pieces
        // at that level or higher.
        // (Levels read in place: arrays of them cost an allocation each for every line laid out.)
        let highest = pieces.reduce(UInt8(0)) { max($0, $1.level) }
        if highest > 0 {
            let odd = pieces.reduce(UInt8.max) { $1.level & 1 == 1 ? min($0, $1.level) : $0 }
            let lowestOdd = odd == .max ? highest : odd
            var level = highest
            while level >= max(1, lowestOdd) {
                var start = 0
                while start < pieces.count {
                    guard pieces[start].level >= level else {
                        start += 1
                        continue
                    }
                    var end = start
                    while end < pieces.count, pieces[end].level >= level { end += 1 }
                    pieces[start..<end].reverse()
                    start = end
                }
                level -= 1
            }
        }
        var line = TextLine(isRightToLeft: paragraph.baseLevel & 1 == 1)
        line.glyphs.reserveCapacity(pieces.reduce(0) { $0 + $1.glyphs.count })
        var pen = 0.0
        for piece in pieces {
            for glyph in piece.glyphs where piece.clusters?.contains(glyph.cluster) ?? true {
                line.glyphs.append(
                    PlacedGlyph(
                        index: glyph.index, x: pen + glyph.xOffset, y: glyph.yOffset, font: glyph.font,
                        cluster: piece.clusters == nil ? range.upperBound : glyph.cluster))
                pen += glyph.advance
            }
        }
        line.width = pen
        return line
    }
}

extension TextLayout {
    /// The characters of `text` that layout draws: all but the combining marks past
    /// `ShapedParagraph.marksInARow` in a row (for checks that must agree with what is drawn).
    public static func scalarsDrawn(_ text: String) -> [UInt32] {
        ShapedParagraph.cappingMarks(text.unicodeScalars.map(\.value))
    }
}

/// Laid-out lines by text and box, on the face they were laid out with. Bounded: when full it is
/// emptied (texts are re-laid-out on their next use, as after a restart).
struct LayoutCache {
    struct Key: Hashable {
        var text: String
        var width: Double
        var lines: Int
        var moreFollows: Bool
        var direction: TextDirection
        var marksTruncation: Bool
    }

    static let capacity = 512
    /// Longer texts are laid out each time rather than held.
    static let longestCachedText = 4096
    private var lines: [Key: [TextLine]] = [:]

    subscript(key: Key) -> [TextLine]? {
        get { lines[key] }
        set {
            guard key.text.utf8.count <= Self.longestCachedText else { return }
            if lines.count >= Self.capacity { lines.removeAll(keepingCapacity: true) }
            lines[key] = newValue
        }
    }
}
