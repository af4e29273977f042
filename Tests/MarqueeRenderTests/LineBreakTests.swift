import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Line breaking at UAX #14 opportunities (libunibreak): between ideographs, never inside a word
/// or before closing punctuation; a word wider than the line is cut between grapheme clusters;
/// runs of spaces are kept.
final class LineBreakTests: XCTestCase {
    var body: FontFace!

    override func setUpWithError() throws {
        body = try defaultStyleFonts().body
    }

    /// Each line's characters (logical order), read back from the glyphs' clusters.
    func texts(_ lines: [TextLine], of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return lines.map { line in
            let clusters = Set(line.glyphs.map(\.cluster)).sorted()
            guard let first = clusters.first, let last = clusters.last else { return "" }
            var end = last + 1
            while end < scalars.count, !clusters.contains(end),
                scalars[end].properties.generalCategory == .nonspacingMark || scalars[end].properties.isGraphemeExtend
            {
                end += 1
            }
            return String(String.UnicodeScalarView(scalars[first..<end]))
        }
    }

    func testChineseBreaksBetweenIdeographsNotBeforeClosingPunctuation() {
        let text = "下一班车三分钟后到达，请在四号站台候车。前往机场的乘客请换乘。"
        let lines = TextLayout.lines(text, face: body, maximumWidth: 130, maximumLines: 20)
        let parts = texts(lines, of: text)
        XCTAssertGreaterThan(lines.count, 3)
        XCTAssertEqual(parts.joined(), text, "every character once, in order")
        for (line, part) in zip(lines, parts) {
            XCTAssertLessThanOrEqual(line.width, 130)
            XCTAssertFalse(part.hasPrefix("，") || part.hasPrefix("。"), "\"\(part)\" starts with closing punctuation")
        }
        // Greedy: a line ends early only to keep an ideograph with the punctuation after it (one
        // ideograph and one mark, 48 px at 24 px, did not fit); "达，" moved to the next line whole.
        for line in lines.dropLast() { XCTAssertGreaterThan(line.width + 48, 130) }
        XCTAssertTrue(parts.contains { $0.hasPrefix("达，") }, "\(parts)")
    }

    func testLatinBreaksBetweenWordsAndLongWordsBetweenGraphemes() {
        let text = "Calling at Alderley Brightwater Carrow"
        let lines = TextLayout.lines(text, face: body, maximumWidth: 150, maximumLines: 10)
        XCTAssertEqual(texts(lines, of: text), ["Calling at", "Alderley", "Brightwater", "Carrow"])
        // A word wider than the line: cut between grapheme clusters ("é" is e + U+0301 here and
        // never parted from its accent).
        let word = String(repeating: "Bre\u{301}tagne", count: 4)
        let cut = TextLayout.lines(word, face: body, maximumWidth: 100, maximumLines: 10)
        let parts = texts(cut, of: word)
        XCTAssertGreaterThan(cut.count, 2)
        XCTAssertEqual(parts.joined(), word)
        for (line, part) in zip(cut, parts) {
            XCTAssertLessThanOrEqual(line.width, 100)
            XCTAssertFalse(part.unicodeScalars.first!.properties.isGraphemeExtend, "\"\(part)\" starts with a mark")
        }
    }

    func testRunsOfSpacesAreKept() {
        func width(_ text: String) -> Double {
            TextLayout.lines(text, face: body, maximumWidth: 10_000, maximumLines: 1)[0].width
        }
        let space = width("a b") - width("ab")
        XCTAssertGreaterThan(space, 0)
        XCTAssertEqual(width("a    b"), width("a b") + 3 * space, accuracy: 0.01)
        XCTAssertEqual(width("  ab"), width("ab") + 2 * space, accuracy: 0.01, "leading spaces too")
    }

    /// Flags (pairs of regional indicators) and U+FFFF made libunibreak 1.1 abort the process; they
    /// break like letters now, and a flag is never split between lines.
    func testFlagsAndUFFFFAreBrokenWithoutCrashing() {
        let flags = "Flags \u{1F1EF}\u{1F1F5} \u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA} end \u{FFFF} x"
        let lines = TextLayout.lines(flags, face: body, maximumWidth: 40, maximumLines: 20)
        XCTAssertGreaterThan(lines.count, 3)
        // A flag is one glyph, clustered at its first half: a second half with a glyph of its
        // own (scalars 7, 10 and 12) would be a flag split between lines.
        let clusters = lines.flatMap { $0.glyphs.map(\.cluster) }
        XCTAssertTrue(Set(clusters).isDisjoint(with: [7, 10, 12]), "\(lines)")
        XCTAssertTrue(clusters.contains(11), "the second flag of the pair is a glyph of its own")
    }
}
