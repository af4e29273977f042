import Foundation
import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Shaping held to HarfBuzz's own command-line tool: for each string, the glyph ids, advances,
/// offsets and clusters of every run equal what `hb-shape` prints for the same font file, face
/// index and size (scale = size × 64, so both are in 1/64 px).
final class ShapingTests: XCTestCase {
    let library = try! FreeTypeLibrary()
    let locator = try! FontLocator()
    static let size = 24

    struct OracleGlyph: Equatable, CustomStringConvertible {
        var glyph: UInt32
        var cluster: Int
        var advance: Int
        var xOffset: Int
        var yOffset: Int
        var description: String { "\(glyph)=\(cluster)@\(xOffset),\(yOffset)+\(advance)" }
    }

    func face(_ pattern: String, size: Int = ShapingTests.size) throws -> FontFace {
        let file = try locator.file(for: pattern)
        return try FontFace(library: library, path: file.path, index: file.index, pixelSize: size)
    }

    /// `hb-shape`'s glyphs for `text` in `face`'s file; `direction` only for a run of mixed text
    /// (a single-script string lets hb-shape guess, as it does by default).
    func oracle(_ text: String, face: FontFace, direction: String? = nil) throws -> [OracleGlyph] {
        var arguments = [
            "--font-size=\(face.pixelSize * 64)", "--font-ppem=\(face.pixelSize)", "--face-index=\(face.faceIndex)",
            "--no-glyph-names", "--output-format=json",
        ]
        if let direction { arguments.append("--direction=\(direction)") }
        arguments += [face.path, text]
        let json = try ExternalTool.run("/usr/bin/hb-shape", arguments, package: "libharfbuzz-bin")
        let items = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
        return items.map {
            OracleGlyph(
                glyph: ($0["g"] as! NSNumber).uint32Value, cluster: ($0["cl"] as! NSNumber).intValue,
                advance: ($0["ax"] as! NSNumber).intValue, xOffset: ($0["dx"] as! NSNumber).intValue,
                yOffset: ($0["dy"] as! NSNumber).intValue)
        }
    }

    func ours(_ run: ShapedRun) -> [OracleGlyph] {
        run.glyphs.map {
            OracleGlyph(
                glyph: $0.index, cluster: $0.cluster - run.scalars.lowerBound,
                advance: Int(($0.advance * 64).rounded()),
                xOffset: Int(($0.xOffset * 64).rounded()), yOffset: Int(($0.yOffset * 64).rounded()))
        }
    }

    /// Every run of `text` as laid out with `face` equals hb-shape on that run's characters.
    func assertShapedLikeHarfBuzz(
        _ text: String, _ face: FontFace, runs expectedRuns: Int? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let runs = TextLayout.shapedRuns(text, face: face)
        if let expectedRuns { XCTAssertEqual(runs.count, expectedRuns, "runs of \(text)", file: file, line: line) }
        let scalars = Array(text.unicodeScalars)
        for run in runs {
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[run.scalars])
            let expected = try oracle(
                String(piece), face: run.face, direction: runs.count > 1 ? (run.isRightToLeft ? "rtl" : "ltr") : nil)
            XCTAssertEqual(ours(run), expected, "\(String(piece)) in \(run.face.path)", file: file, line: line)
            XCTAssertFalse(expected.isEmpty, file: file, line: line)
        }
    }

    func testArabicJoinsAndIsShapedRightToLeft() throws {
        let arabic = try face("Noto Sans Arabic")
        try assertShapedLikeHarfBuzz("مرحبا بالعالم", arabic, runs: 1)
        let run = TextLayout.shapedRuns("مرحبا", face: arabic)[0]
        XCTAssertTrue(run.isRightToLeft)
        // Joined forms: the initial meem is not the isolated form the cmap maps U+0645 to.
        XCTAssertNotEqual(run.glyphs.last?.index, arabic.glyphIndex(for: "\u{645}"))
    }

    func testHebrewWithDigits() throws {
        try assertShapedLikeHarfBuzz("רציף 12 בשעה 08:45", try face("Noto Sans Hebrew"))
    }

    func testDevanagariConjunctsAndMarks() throws {
        let devanagari = try face("Noto Sans Devanagari")
        try assertShapedLikeHarfBuzz("नमस्ते क्षत्रिय हिन्दी", devanagari, runs: 1)
        // क्ष is one conjunct glyph: fewer glyphs than characters.
        let run = TextLayout.shapedRuns("क्ष", face: devanagari)[0]
        XCTAssertEqual(run.glyphs.count, 1)
    }

    func testThai() throws {
        try assertShapedLikeHarfBuzz("สวัสดีครับ", try face("Noto Sans Thai"), runs: 1)
    }

    func testChinese() throws {
        try assertShapedLikeHarfBuzz("下一班车三分钟后到达", try face("Noto Sans CJK SC"), runs: 1)
    }

    func testLatinLigatureAndKerning() throws {
        let noto = try face("Noto Sans")
        try assertShapedLikeHarfBuzz("office AVATAR To", noto, runs: 1)
        // "ffi" is one glyph in Noto Sans; "AV" is kerned closer than A and V apart (GPOS).
        XCTAssertEqual(TextLayout.shapedRuns("ffi", face: noto)[0].glyphs.count, 1)
        let pair = TextLayout.shapedRuns("AV", face: noto)[0].glyphs
        let alone = TextLayout.shapedRuns("A", face: noto)[0].glyphs[0].advance
        XCTAssertLessThan(pair[0].advance, alone)
        try assertShapedLikeHarfBuzz("AVAWAY To", try face("DejaVu Sans"), runs: 1)
    }
}
