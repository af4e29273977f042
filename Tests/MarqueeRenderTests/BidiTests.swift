import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Bidirectional text: the visual order of every laid-out line equals the visual-to-logical map
/// that FriBidi's own `fribidi` tool prints for the same string and base direction; right-to-left
/// paragraphs are aligned to the right by `start` and end with "…" on their left.
final class BidiTests: XCTestCase {
    var body: FontFace!

    override func setUpWithError() throws {
        body = try defaultStyleFonts().body
    }

    /// `fribidi --vtol`: for each visual position, the logical index shown there.
    func fribidiVisualOrder(_ text: String, direction: TextDirection) throws -> [Int] {
        var arguments = ["--novisual", "--vtol", "--nobreak"]
        if direction == .rtl { arguments.append("--rtl") }
        if direction == .ltr { arguments.append("--ltr") }
        let input = "/tmp/marquee-bidi-\(getpid()).txt"
        _ = FileManager.default.createFile(atPath: input, contents: Data((text + "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: input) }
        let output = try ExternalTool.run("/usr/bin/fribidi", arguments + [input], package: "libfribidi-bin")
        return output.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
    }

    /// Our line's characters in visual order, as logical indices (one glyph per character in
    /// these strings: no ligatures, no marks).
    func visualOrder(_ text: String, direction: TextDirection) -> [Int] {
        let lines = TextLayout.lines(text, face: body, maximumWidth: 10_000, maximumLines: 1, direction: direction)
        return lines.first?.glyphs.map(\.cluster) ?? []
    }

    func testVisualOrderEqualsFriBidi() throws {
        let cases: [(String, TextDirection)] = [
            ("abc שלום 123 def", .auto),
            ("שלום abc 123!", .auto),
            ("רציף 4, יציאה ב-08:45 (Carrow Bay)", .auto),
            ("مرحبا 2024 بك في Marquee", .auto),
            ("Gate 12: مرحبا بك", .auto),
            ("abc 123", .rtl),
            ("שלום", .ltr),
            ("abc \u{202B}שלום def\u{202C} ghi", .auto),
            ("1 2 3 \u{05D0} 4", .auto),
        ]
        for (text, direction) in cases {
            let expected = try fribidiVisualOrder(text, direction: direction)
            XCTAssertEqual(expected.count, text.unicodeScalars.count, "fribidi's map of \(text)")
            XCTAssertEqual(visualOrder(text, direction: direction), expected, "\(text) (\(direction))")
        }
    }

    func testRightToLeftParagraphsFlagTheirLinesAndAlignByStart() {
        let hebrew = TextLayout.lines("שלום", face: body, maximumWidth: 500, maximumLines: 1)[0]
        XCTAssertTrue(hebrew.isRightToLeft)
        XCTAssertEqual(hebrew.offset(in: 500, align: .start), 500 - hebrew.width)
        XCTAssertEqual(hebrew.offset(in: 500, align: .end), 0)
        XCTAssertEqual(hebrew.offset(in: 500, align: .left), 0)
        XCTAssertEqual(hebrew.offset(in: 500, align: .center), (500 - hebrew.width) / 2)
        let latin = TextLayout.lines("Hello", face: body, maximumWidth: 500, maximumLines: 1)[0]
        XCTAssertFalse(latin.isRightToLeft)
        XCTAssertEqual(latin.offset(in: 500, align: .start), 0)
        XCTAssertEqual(latin.offset(in: 500, align: .right), 500 - latin.width)
        // A left-to-right paragraph stays so when told, whatever its first letter.
        let forced = TextLayout.lines("שלום", face: body, maximumWidth: 500, maximumLines: 1, direction: .ltr)[0]
        XCTAssertFalse(forced.isRightToLeft)
    }

    func testTheEllipsisIsAtTheLogicalEnd() {
        let ellipsis = body.glyphIndex(for: "\u{2026}")
        let text = "שלום עולם ורכבת לכל מקום בארץ"
        let cut = TextLayout.lines(text, face: body, maximumWidth: 120, maximumLines: 1)[0]
        XCTAssertLessThanOrEqual(cut.width, 120)
        // Right to left: the logical end is the left.
        XCTAssertEqual(cut.glyphs.first?.index, ellipsis)
        XCTAssertNotEqual(cut.glyphs.last?.index, ellipsis)
        // The text kept is the paragraph's beginning, drawn right to left: its first letter is
        // the rightmost glyph.
        XCTAssertEqual(cut.glyphs.last?.cluster, 0)
        let latin = TextLayout.lines(
            "Calling at Alderley and Brightwater", face: body, maximumWidth: 120, maximumLines: 1)[0]
        XCTAssertEqual(latin.glyphs.last?.index, ellipsis)
        XCTAssertEqual(latin.glyphs.first?.cluster, 0)
    }
}
