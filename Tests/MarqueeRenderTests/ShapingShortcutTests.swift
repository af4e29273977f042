import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

/// Plain ASCII text in the style's own face is shaped as one run without the per-character
/// arrays of grapheme starts, faces and scripts (`ShapedParagraph`'s shortcut, taken by most new
/// cards' titles and bodies): it must give exactly what the general path gives (glyphs, runs,
/// pens, cut positions), and leave to the general path what it cannot take: right-to-left
/// paragraphs, "\r" (which joins "\n" in one grapheme), characters the face lacks, anything not ASCII.
final class ShapingShortcutTests: XCTestCase {
    func testShortcutMatchesTheGeneralPath() throws {
        var musicStyle = Style()
        // A face with a space and no letters or digits: ASCII text falls back character by character.
        musicStyle.bodyFont = "Noto Music"
        // Noto Sans maps "\r" and "\n" to glyphs of their own (DejaVu Sans has neither).
        var notoStyle = Style()
        notoStyle.bodyFont = "Noto Sans"
        let faces =
            try [Style(), musicStyle, notoStyle].map { try defaultStyleFonts($0).body } + [
                try defaultStyleFonts().title
            ]
        let pieces = [
            "Card", "4711", "Gate 4!", "(Platform 2)", "ffi AV", " ", "  ", "\r\n", "\r", "\t", "\u{1}", "-", "...",
            "Ålesund", "مرحبا", "e\u{301}", "~^`",
        ]
        let directions: [TextDirection] = [.auto, .ltr, .rtl]
        var random = SplitMix64(seed: 47)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var shortcuts = 0
        for _ in 0..<600 {
            var text = ""
            for index in 0..<(1 + below(4)) {
                if index > 0 && below(3) == 0 { text += " " }
                text += pieces[below(pieces.count)]
            }
            let face = faces[below(faces.count)]
            let direction = directions[below(directions.count)]
            let general = ShapedParagraph(text, face: face, direction: direction, shortcut: false)
            XCTAssertEqual(
                ShapedParagraph(text, face: face, direction: direction), general,
                "\(text.debugDescription) \(direction) in \(face.path)")
            let scalars = text.unicodeScalars.map(\.value)
            if direction != .rtl && ShapedParagraph.plainASCIIScript(scalars, face: face) != nil { shortcuts += 1 }
        }
        XCTAssertGreaterThan(shortcuts, 60, "the shortcut's case came up")
    }
}
