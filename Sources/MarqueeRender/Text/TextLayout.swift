/// A glyph placed on a line: `x` is the pen position from the line's start.
public struct PlacedGlyph: Equatable, Sendable {
    public var index: UInt32
    public var x: Double
}

/// One laid-out line of text.
public struct TextLine: Equatable, Sendable {
    public var glyphs: [PlacedGlyph] = []
    public var width: Double = 0
}

/// Breaks UTF-8 text into lines for one face: kerning between neighbouring glyphs, greedy word
/// wrap at spaces (a word wider than the line breaks between characters), hard breaks at "\n",
/// and "…" at the end of the last line when the text does not fit in `maximumLines`.
public struct TextLayout {
    private static let ellipsis: Unicode.Scalar = "\u{2026}"

    /// `moreFollows` says that something after this text (a card's body that has no room) is not
    /// shown: the last line then ends with "…" even when the text itself fits.
    public static func lines(
        _ text: String, face: FontFace, maximumWidth: Double, maximumLines: Int, moreFollows: Bool = false
    ) -> [TextLine] {
        guard maximumLines > 0, maximumWidth > 0 else { return [] }
        var lines: [TextLine] = []
        var truncated = false
        let spaceAdvance = face.glyph(face.glyphIndex(for: " ")).advance
        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = TextLine()
            for word in paragraph.split(separator: " ") {
                var wordLine = shape(word, face: face)
                let needed = line.glyphs.isEmpty ? wordLine.width : line.width + spaceAdvance + wordLine.width
                if needed <= maximumWidth {
                    append(&line, wordLine, gap: line.glyphs.isEmpty ? 0 : spaceAdvance)
                    continue
                }
                if !line.glyphs.isEmpty {
                    lines.append(line)
                    line = TextLine()
                    if lines.count == maximumLines {
                        truncated = true
                        break paragraphs
                    }
                }
                // The word alone is too wide: break it between characters.
                while wordLine.width > maximumWidth {
                    let (head, tail) = breakLine(wordLine, at: maximumWidth)
                    lines.append(head)
                    wordLine = tail
                    if lines.count == maximumLines {
                        truncated = true
                        break paragraphs
                    }
                }
                line = wordLine
            }
            lines.append(line)
            if lines.count == maximumLines {
                truncated = paragraphIsNotLast(paragraph, in: text)
                break
            }
        }
        if truncated || moreFollows, var last = lines.popLast() {
            addEllipsis(&last, face: face, maximumWidth: maximumWidth)
            lines.append(last)
        }
        return lines
    }

    private static func paragraphIsNotLast(_ paragraph: Substring, in text: String) -> Bool {
        paragraph.endIndex < text.endIndex
    }

    /// The glyphs of one word with kerning applied.
    static func shape<S: StringProtocol>(_ word: S, face: FontFace) -> TextLine {
        var line = TextLine()
        var pen = 0.0
        var previous: UInt32 = 0
        for scalar in word.unicodeScalars {
            let index = face.glyphIndex(for: scalar)
            pen += face.kerning(previous, index)
            line.glyphs.append(PlacedGlyph(index: index, x: pen))
            pen += face.glyph(index).advance
            previous = index
        }
        line.width = pen
        return line
    }

    private static func append(_ line: inout TextLine, _ word: TextLine, gap: Double) {
        let start = line.width + gap
        for glyph in word.glyphs { line.glyphs.append(PlacedGlyph(index: glyph.index, x: start + glyph.x)) }
        line.width = start + word.width
    }

    /// Splits a line before the first glyph that would end past `width` (at least one glyph stays).
    private static func breakLine(_ line: TextLine, at width: Double) -> (TextLine, TextLine) {
        var count = 1
        while count < line.glyphs.count, line.glyphs[count].x + glyphWidth(line, count) <= width { count += 1 }
        let splitX = count < line.glyphs.count ? line.glyphs[count].x : line.width
        let head = TextLine(glyphs: Array(line.glyphs[..<count]), width: splitX)
        let tail = TextLine(
            glyphs: line.glyphs[count...].map { PlacedGlyph(index: $0.index, x: $0.x - splitX) },
            width: line.width - splitX)
        return (head, tail)
    }

    private static func glyphWidth(_ line: TextLine, _ position: Int) -> Double {
        let next = position + 1 < line.glyphs.count ? line.glyphs[position + 1].x : line.width
        return next - line.glyphs[position].x
    }

    /// Ends `line` with "…", dropping glyphs from its end until the ellipsis fits.
    private static func addEllipsis(_ line: inout TextLine, face: FontFace, maximumWidth: Double) {
        let ellipsisIndex = face.glyphIndex(for: ellipsis)
        let ellipsisAdvance = face.glyph(ellipsisIndex).advance
        let spaceIndex = face.glyphIndex(for: " ")
        while let last = line.glyphs.last, line.width + ellipsisAdvance > maximumWidth || last.index == spaceIndex {
            line.glyphs.removeLast()
            line.width = last.x
            // Dropping a word's first glyph leaves the gap before it: the ellipsis goes right after
            // the word before ("Platform…", not "Platform …").
            if let kept = line.glyphs.last { line.width = min(line.width, kept.x + face.glyph(kept.index).advance) }
        }
        line.glyphs.append(PlacedGlyph(index: ellipsisIndex, x: line.width))
        line.width += ellipsisAdvance
    }
}
