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

    func testWrapsAtWordsWithinTheWidth() {
        let lines = TextLayout.lines(
            "the quick brown fox jumps over the lazy dog", face: face, maximumWidth: 120, maximumLines: 10)
        XCTAssertGreaterThan(lines.count, 2)
        for line in lines { XCTAssertLessThanOrEqual(line.width, 120) }
        let ellipsis = face.glyphIndex(for: "\u{2026}")
        XCTAssertFalse(lines.contains { $0.glyphs.contains { $0.index == ellipsis } }, "everything fitted")
    }

    func testHardBreaksAndEllipsis() {
        let lines = TextLayout.lines("one\ntwo\nthree", face: face, maximumWidth: 500, maximumLines: 2)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[1].glyphs.last?.index, face.glyphIndex(for: "\u{2026}"), "dropped text is marked")
        let fits = TextLayout.lines("one\ntwo", face: face, maximumWidth: 500, maximumLines: 2)
        XCTAssertNotEqual(fits[1].glyphs.last?.index, face.glyphIndex(for: "\u{2026}"))
    }

    func testLongWordBreaksAndTruncatedLineStaysInside() {
        let lines = TextLayout.lines(String(repeating: "W", count: 80), face: face, maximumWidth: 100, maximumLines: 2)
        XCTAssertEqual(lines.count, 2)
        for line in lines { XCTAssertLessThanOrEqual(line.width, 100) }
    }

    func testKerningTightensPairs() {
        // DejaVu Sans kerns "AV"; the pair is narrower than its glyphs' advances added.
        let separate = width("A") + width("V")
        XCTAssertLessThan(width("AV"), separate)
    }

    func testUTF8TextMapsToRealGlyphs() {
        for scalar in "Ünïcödé€∑".unicodeScalars { XCTAssertNotEqual(face.glyphIndex(for: scalar), 0, "\(scalar)") }
    }

    func testNoGlyphIsRasterizedTwice() {
        _ = TextLayout.lines("Departure board, platform 4", face: face, maximumWidth: 1000, maximumLines: 1)
        let after = face.rasterizedGlyphCount
        _ = TextLayout.lines("Departure board, platform 4 platform", face: face, maximumWidth: 1000, maximumLines: 1)
        XCTAssertEqual(face.rasterizedGlyphCount, after)
        XCTAssertEqual(after, Set("Departure board, platform 4".unicodeScalars).count)
    }
}
