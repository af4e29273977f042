import MarqueeCore
import MarqueeRender
import XCTest

final class TextTests: XCTestCase {
    var face: FontFace!

    override func setUpWithError() throws {
        let locator = try FontLocator()
        face = try FontFace(library: try FreeTypeLibrary(), path: try locator.path(for: "DejaVu Sans"), pixelSize: 20)
    }

    func width(_ text: String) -> Double {
        TextLayout.lines(text, face: face, maximumWidth: 10_000, maximumLines: 1).first?.width ?? 0
    }

    /// The characters a laid-out line shows, read back from its glyph indices ("…" included).
    func text(of line: TextLine, from source: String) -> String {
        var characterOfGlyph: [UInt32: Character] = [face.glyphIndex(for: "\u{2026}"): "…"]
        for character in source { characterOfGlyph[face.glyphIndex(for: character.unicodeScalars.first!)] = character }
        var text = ""
        var end = 0.0
        for glyph in line.glyphs {
            // A gap wider than a glyph's kerning is where a space was.
            if !text.isEmpty, glyph.x - end > 2 { text.append(" ") }
            text.append(characterOfGlyph[glyph.index] ?? "?")
            end = glyph.x + face.glyph(glyph.index).advance
        }
        return text
    }

    func testWrapsAtWordsWithinTheWidth() {
        let source = "the quick brown fox jumps over the lazy dog"
        let lines = TextLayout.lines(source, face: face, maximumWidth: 120, maximumLines: 10)
        let texts = lines.map { text(of: $0, from: source) }
        // Every word once, in order, none split; nothing dropped.
        XCTAssertEqual(texts.joined(separator: " "), source)
        for line in lines { XCTAssertLessThanOrEqual(line.width, 120) }
        // Greedy: the next line's first word would not have fitted on the line before it.
        for (line, next) in zip(texts, texts.dropFirst()) {
            let firstWord = String(next.split(separator: " ")[0])
            XCTAssertGreaterThan(width(line + " " + firstWord), 120, "\"\(firstWord)\" fitted after \"\(line)\"")
        }
        XCTAssertGreaterThan(lines.count, 2)
    }

    func testMoreFollowingEndsTheLastLineWithAnEllipsis() {
        // A card's body with no room for a line: the title that is shown ends with "…".
        let lines = TextLayout.lines("Platform 4", face: face, maximumWidth: 500, maximumLines: 1, moreFollows: true)
        XCTAssertEqual(lines.map { text(of: $0, from: "Platform 4") }, ["Platform 4…"])
        let cut = TextLayout.lines(
            "Platform 4", face: face, maximumWidth: width("Platform"), maximumLines: 1, moreFollows: true)
        XCTAssertEqual(cut.count, 1)
        XCTAssertLessThanOrEqual(cut[0].width, width("Platform"))
        XCTAssertEqual(text(of: cut[0], from: "Platform 4").last, "…")
    }

    func testHardBreaksAndEllipsis() {
        let lines = TextLayout.lines("one\ntwo\nthree", face: face, maximumWidth: 500, maximumLines: 2)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1].glyphs.last?.index, face.glyphIndex(for: "\u{2026}"), "dropped text is marked")
        let fits = TextLayout.lines("one\ntwo", face: face, maximumWidth: 500, maximumLines: 2)
        XCTAssertNotEqual(fits[1].glyphs.last?.index, face.glyphIndex(for: "\u{2026}"))
    }

    func testLongWordBreaksAndTruncatedLineStaysInside() {
        let source = String(repeating: "W", count: 80)
        let lines = TextLayout.lines(source, face: face, maximumWidth: 100, maximumLines: 2)
        XCTAssertEqual(lines.count, 2)
        for line in lines { XCTAssertLessThanOrEqual(line.width, 100) }
        let texts = lines.map { text(of: $0, from: source) }
        XCTAssertFalse(texts[0].contains("…"))
        XCTAssertEqual(texts[1].last, "…", "the cut word is marked")
        // The first line is as full as the width allows: one more W would not fit.
        XCTAssertGreaterThan(width(texts[0] + "W"), 100)
    }

    func testKerningTightensPairs() {
        // DejaVu Sans kerns "AV"; the pair is narrower than its glyphs' advances added.
        let separate = width("A") + width("V")
        XCTAssertLessThan(width("AV"), separate)
    }

    func testUTF8TextMapsToRealGlyphs() {
        for scalar in "Ünïcödé€∑".unicodeScalars { XCTAssertNotEqual(face.glyphIndex(for: scalar), 0, "\(scalar)") }
    }

    /// Layout measures with HarfBuzz's advances and rasterizes nothing; drawing rasterizes each
    /// glyph once, however often it is drawn.
    func testNoGlyphIsRasterizedTwice() throws {
        let first = TextLayout.lines("Departure board, platform 4", face: face, maximumWidth: 1000, maximumLines: 1)
        XCTAssertEqual(face.rasterizedGlyphCount, 0)
        let second = TextLayout.lines(
            "Departure board, platform 4 platform", face: face, maximumWidth: 1000, maximumLines: 1)
        for line in first + second + first { for glyph in line.glyphs { _ = face.glyph(glyph.index) } }
        XCTAssertEqual(face.rasterizedGlyphCount, Set("Departure board, platform 4".unicodeScalars).count)
    }
}
