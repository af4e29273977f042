import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Font fallback: characters the style's font lacks come from the font fontconfig sorts first
/// among those that have them, run by run; characters no font has are the font's .notdef box.
final class FallbackTests: XCTestCase {
    func fonts() throws -> FontSet {
        try defaultStyleFonts()
    }

    func testOneLineMixesLatinArabicDevanagariAndChinese() throws {
        let body = try fonts().body
        let text = "Gate 4 مرحبا नमस्ते 你好"
        let runs = TextLayout.shapedRuns(text, face: body)
        let scalars = Array(text.unicodeScalars)
        func file(of fragment: String) -> String? {
            let needle = Array(fragment.unicodeScalars)
            guard
                let offset = (0...(scalars.count - needle.count)).first(where: {
                    Array(scalars[$0..<$0 + needle.count]) == needle
                })
            else { return nil }
            return runs.first { $0.scalars.contains(offset) }?.face.path
        }
        XCTAssertEqual(file(of: "Gate"), body.path)
        // DejaVu Sans has Arabic of its own; it lacks Devanagari and Han.
        XCTAssertEqual(file(of: "مرحبا"), body.path)
        XCTAssertTrue(file(of: "नमस्ते")?.contains("Devanagari") == true, file(of: "नमस्ते") ?? "none")
        XCTAssertTrue(file(of: "你好")?.contains("CJK") == true, file(of: "你好") ?? "none")
        // No glyph of the line is .notdef, and every glyph comes from a face that has it.
        let line = TextLayout.lines(text, face: body, maximumWidth: 5000, maximumLines: 1)[0]
        XCTAssertFalse(line.glyphs.contains { $0.index == 0 }, "\(line.glyphs)")
        XCTAssertGreaterThan(Set(line.glyphs.map(\.font)).count, 2)
    }

    func testASCIITheStyleFontLacksComesFromAFallback() throws {
        // Noto Music has a space but no letters or digits: plain ASCII text is not all the
        // style's face's own (the one-run shortcut for ASCII must not take it).
        var style = Style()
        style.bodyFont = "Noto Music"
        let body = try defaultStyleFonts(style).body
        XCTAssertTrue(body.path.contains("NotoMusic"), body.path)
        let line = TextLayout.lines("Hi 5", face: body, maximumWidth: 5000, maximumLines: 1)[0]
        XCTAssertEqual(line.glyphs.count, 4)
        XCTAssertFalse(line.glyphs.contains { $0.index == 0 }, "no .notdef box: \(line.glyphs)")
        XCTAssertNotEqual(line.glyphs[0].font, 0, "H from a fallback face")
        XCTAssertNotEqual(line.glyphs[3].font, 0, "5 from a fallback face")
    }

    func testACharacterNoFontHasIsTheNotdefBox() throws {
        let body = try fonts().body
        // U+10FFFD is a private-use character that no installed font maps.
        let line = TextLayout.lines("A\u{10FFFD}B", face: body, maximumWidth: 5000, maximumLines: 1)[0]
        XCTAssertEqual(line.glyphs.map(\.index)[1], 0)
        XCTAssertEqual(line.glyphs[1].font, 0, "drawn with the style's own font")
        XCTAssertNotNil(body.glyph(0).mask, ".notdef is a visible box")
        XCTAssertGreaterThan(line.glyphs[2].x, line.glyphs[1].x, "the box takes room")
    }
}
