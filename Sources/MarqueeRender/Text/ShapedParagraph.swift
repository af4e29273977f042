import CHarfBuzz
import MarqueeCore

/// One glyph as HarfBuzz placed it, in pixels: `cluster` is the offset (in Unicode scalars) of the
/// first character it shows, `font` the face number (`FontFace.face(numbered:)`).
public struct ShapedGlyph: Equatable, Sendable {
    public var index: UInt32
    public var font: UInt16
    public var cluster: Int
    public var advance: Double
    public var xOffset: Double
    public var yOffset: Double
}

/// One paragraph (no "\n"), shaped once in logical order: runs of one face, one script and one
/// bidi level, each shaped by HarfBuzz with the whole paragraph as context (so Arabic joins across
/// a run boundary). Line breaking measures it by prefix sums of advances; lines are cut from it
/// without shaping again.
struct ShapedParagraph: Equatable {
    struct Run: Equatable {
        var scalars: Range<Int>
        var glyphs: Range<Int>
        var level: UInt8
    }

    let scalars: [UInt32]
    private(set) var glyphs: [ShapedGlyph] = []
    /// Logical order.
    private(set) var runs: [Run] = []
    /// The paragraph's bidi level: 0 left to right, 1 right to left.
    let baseLevel: UInt8
    /// `penBefore[i]`: the advance of every cluster that starts before scalar `i` (count + 1).
    private(set) var penBefore: [Double]
    /// Where a line may be cut when no break opportunity fits: a grapheme cluster that is also a
    /// HarfBuzz cluster starts there (a ligature or a conjunct is never cut).
    private(set) var cuttable: [Bool]
    /// Where a HarfBuzz cluster starts: the last resort for a grapheme cluster wider than a line
    /// (an emoji sequence of thousands of joiners is one grapheme).
    private(set) var clusterStarts: [Bool]

    /// `shortcut` false: ASCII text takes the general path too (for the test that holds the two
    /// to the same result).
    init<S: StringProtocol>(_ text: S, face: FontFace, direction: TextDirection, shortcut: Bool = true) {
        let written = text.unicodeScalars.map(\.value)
        let scalars = Self.cappingMarks(written)
        self.scalars = scalars
        let levels = BidiLevels(scalars, direction: direction)
        baseLevel = levels.base
        penBefore = Array(repeating: 0, count: scalars.count + 1)
        cuttable = Array(repeating: false, count: scalars.count + 1)
        // Set from `cuttable` once it is known (sharing its storage when nothing differs).
        clusterStarts = []
        guard !scalars.isEmpty else {
            clusterStarts = cuttable
            return
        }
        // About a glyph a character: room made once, not grown glyph by glyph.
        glyphs.reserveCapacity(scalars.count)
        // Most titles and bodies are ASCII in the style's face: one run, no per-character arrays
        // of grapheme starts, faces and scripts (each an allocation for every new card's text).
        let graphemeStarts: [Bool]?
        if shortcut, direction != .rtl, let script = Self.plainASCIIScript(scalars, face: face) {
            graphemeStarts = nil
            shapeRun(0..<scalars.count, font: 0, script: script, level: 0, face: face)
        } else {
            // (Grapheme clusters of the text as kept, when marks were left out.)
            let starts =
                scalars.count == written.count
                ? Self.graphemeStarts(text, count: scalars.count)
                : Self.graphemeStarts(Self.string(scalars), count: scalars.count)
            graphemeStarts = starts
            let fonts = Self.fontNumbers(scalars, graphemeStarts: starts, face: face)
            let scripts = Self.scripts(scalars)
            var start = 0
            for position in 1...scalars.count
            where position == scalars.count || fonts[position] != fonts[start] || scripts[position] != scripts[start]
                || levels.level(position) != levels.level(start)
            {
                shapeRun(
                    start..<position, font: fonts[start], script: scripts[start], level: levels.level(start),
                    face: face)
                start = position
            }
        }
        // Each cluster's advance at its first scalar, then summed into the pens before each.
        for glyph in glyphs {
            penBefore[glyph.cluster + 1] += glyph.advance
            cuttable[glyph.cluster] = true
        }
        cuttable[scalars.count] = true
        for position in 0..<scalars.count { penBefore[position + 1] += penBefore[position] }
        clusterStarts = cuttable
        if let graphemeStarts {
            for position in 0..<scalars.count where !graphemeStarts[position] { cuttable[position] = false }
        }
    }

    /// The script of text that the general path would shape as one run of `face` itself: ASCII
    /// without "\r" (one grapheme cluster a character), every character in the face. Latin when
    /// it has a letter, else Common (digits, spaces and punctuation take the script around
    /// them); nil for any other text.
    static func plainASCIIScript(_ scalars: [UInt32], face: FontFace) -> hb_script_t? {
        var hasLetter = false
        for value in scalars {
            guard value < 0x80, value != 0x0D, face.glyphIndex(forValue: value) != 0 else { return nil }
            hasLetter = hasLetter || (value | 0x20 >= 0x61 && value | 0x20 <= 0x7A)
        }
        return hasLetter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON
    }

    /// Combining marks kept in a row (after a base or not): Unicode's stream-safe text format
    /// allows 30 non-starters in a row, more than any writing system stacks.
    static let marksInARow = 30

    /// `scalars` without the marks past `marksInARow` in a row (invisible characters between
    /// them do not end the row). HarfBuzz places each mark by
    /// searching back over the marks before it, so its time grows with the square of a run's
    /// length: 30,000 accents on one letter (a 60 KB line) took 1.3 s to shape, during which no
    /// frame was drawn. Nothing visible is lost: marks that many deep are stacked far off the line.
    static func cappingMarks(_ scalars: [UInt32]) -> [UInt32] {
        // Every mark is at U+0300 or above; most text has no run of 30 and is kept as it is.
        guard scalars.count > marksInARow, scalars.contains(where: { $0 >= 0x300 }) else { return scalars }
        let functions = hb_unicode_funcs_get_default()
        func isMark(_ value: UInt32) -> Bool {
            guard value >= 0x300 else { return false }
            let category = hb_unicode_general_category(functions, value)
            return category == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK
                || category == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK
        }
        // The marks since the last character that is neither a mark nor invisible: HarfBuzz's
        // search skips default-ignorable characters too (a joiner between each two accents).
        func counted(_ run: Int, _ value: UInt32) -> Int {
            isMark(value) ? run + 1 : isDefaultIgnorable(value) ? run : 0
        }
        var run = 0
        var longest = 0
        for value in scalars {
            run = counted(run, value)
            longest = max(longest, run)
        }
        guard longest > marksInARow else { return scalars }
        var kept: [UInt32] = []
        kept.reserveCapacity(scalars.count)
        run = 0
        for value in scalars {
            run = counted(run, value)
            if run <= marksInARow || !isMark(value) { kept.append(value) }
        }
        return kept
    }

    private static func string(_ scalars: [UInt32]) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars.compactMap(Unicode.Scalar.init))
        return String(view)
    }

    /// The advance of scalars `range` as shaped in the paragraph.
    func width(_ range: Range<Int>) -> Double { penBefore[range.upperBound] - penBefore[range.lowerBound] }

    private mutating func shapeRun(_ range: Range<Int>, font: UInt16, script: hb_script_t, level: UInt8, face: FontFace)
    {
        let runFace = face.face(numbered: font)
        let buffer = runFace.harfBuzzBuffer
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { all in
            hb_buffer_add_utf32(buffer, all.baseAddress, Int32(all.count), UInt32(range.lowerBound), Int32(range.count))
        }
        hb_buffer_set_direction(buffer, level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(runFace.harfBuzzFont, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let first = glyphs.count
        if let infos, let positions {
            for item in 0..<Int(count) {
                glyphs.append(
                    ShapedGlyph(
                        index: infos[item].codepoint, font: font, cluster: Int(infos[item].cluster),
                        advance: Double(positions[item].x_advance) / 64, xOffset: Double(positions[item].x_offset) / 64,
                        yOffset: Double(positions[item].y_offset) / 64))
            }
        }
        runs.append(Run(scalars: range, glyphs: first..<glyphs.count, level: level))
    }

    /// Whether a grapheme cluster starts at each scalar (Swift's `Character` is UAX #29's extended
    /// grapheme cluster). Text of ASCII only (the common case) has one per scalar but "\r\n".
    private static func graphemeStarts<S: StringProtocol>(_ text: S, count: Int) -> [Bool] {
        var starts = Array(repeating: true, count: count)
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return starts }
        var position = 0
        for character in text {
            let size = character.unicodeScalars.count
            for inner in 1..<max(1, size) { starts[position + inner] = false }
            position += size
        }
        return starts
    }

    /// The face number each scalar is drawn with, decided per grapheme cluster: this face when it
    /// has every visible character of the cluster, else the fallback for the cluster's first
    /// character. A cluster shown as an emoji (a character of emoji presentation, or any followed
    /// by U+FE0F) is drawn with a colour font when one has it. Characters of no script of their own (spaces, digits, punctuation) stay with
    /// the face before them when it has them, so a run is not cut at every space.
    private static func fontNumbers(_ scalars: [UInt32], graphemeStarts: [Bool], face: FontFace) -> [UInt16] {
        var fonts = Array(repeating: UInt16(0), count: scalars.count)
        var start = 0
        var previous: UInt16 = 0
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count, !graphemeStarts[end] { end += 1 }
            let cluster = start..<end
            func covers(_ number: UInt16) -> Bool {
                let candidate = face.face(numbered: number)
                return cluster.allSatisfy {
                    Self.isDefaultIgnorable(scalars[$0]) || candidate.glyphIndex(forValue: scalars[$0]) != 0
                }
            }
            var number: UInt16 = 0
            // (ASCII letters alone, the common case, are never emoji: no slice, no lookup.)
            if scalars[start] >= 0xA9 || end - start > 1, Self.prefersEmojiPresentation(scalars[cluster]),
                let colored = face.colorFaceNumber(for: scalars[start])
            {
                number = colored
            } else if previous != 0, !face.face(numbered: previous).hasColor, Self.isScriptNeutral(scalars[start]),
                covers(previous)
            {
                // (Not after an emoji: the colour font has digits and spaces too, but text next
                // to an emoji stays in the style's font.)
                number = previous
            } else if !covers(0) {
                let borrowed = face.fallbackNumber(forMissing: scalars[start])
                // A borrowed face that lacks the cluster's marks is still better for its base.
                number = borrowed != 0 || face.glyphIndex(forValue: scalars[start]) == 0 ? borrowed : 0
            }
            for position in cluster { fonts[position] = number }
            previous = number
            start = end
        }
        return fonts
    }

    /// Each scalar's script; characters common to scripts (spaces, digits, punctuation) and
    /// combining marks take the script of the text around them, so they shape with it.
    private static func scripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let functions = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(functions, $0) }
        // Three comparisons, not a `Set` made and hashed into for every paragraph shaped (a
        // fast scroll shapes each new card's title).
        func isNeutral(_ script: hb_script_t) -> Bool {
            script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED || script == HB_SCRIPT_UNKNOWN
        }
        var current = scripts.first { !isNeutral($0) } ?? HB_SCRIPT_COMMON
        for position in scripts.indices {
            if isNeutral(scripts[position]) {
                scripts[position] = current
            } else {
                current = scripts[position]
            }
        }
        return scripts
    }

    /// Whether a grapheme cluster is shown as a colour emoji: its first character defaults to
    /// emoji presentation (U+1F600) or it asks for it with U+FE0F, and does not ask for text
    /// presentation with U+FE0E. Nothing below U+00A9 is either, so ASCII text skips the lookup.
    static func prefersEmojiPresentation(_ cluster: ArraySlice<UInt32>) -> Bool {
        guard let first = cluster.first, first >= 0xA9 || cluster.count > 1 else { return false }
        if cluster.contains(0xFE0E) { return false }
        if cluster.contains(0xFE0F) { return true }
        return Unicode.Scalar(first)?.properties.isEmojiPresentation ?? false
    }

    static func isScriptNeutral(_ value: UInt32) -> Bool {
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), value)
        return script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED
    }

    /// Characters drawn with no glyph of their own (joiners, variation selectors, bidi controls,
    /// the soft hyphen), which HarfBuzz hides: a font need not have them.
    static func isDefaultIgnorable(_ value: UInt32) -> Bool {
        switch value {
        case 0x00AD, 0x034F, 0x061C, 0x180B...0x180F, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F,
            0xFE00...0xFE0F, 0xFEFF, 0xE0000...0xE0FFF:
            return true
        default:
            return false
        }
    }
}
