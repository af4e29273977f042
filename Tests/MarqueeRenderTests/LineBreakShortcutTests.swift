import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

/// A paragraph that fits on one line is answered without libunibreak (`LineBreaker.lines`'s
/// shortcut, taken by every new card's short title): it must give exactly what the greedy
/// breaking gives, for paragraphs of words, leading, closing and only spaces, other scripts,
/// characters that end a line (U+2028, a form feed, CR), at widths around each one's own.
final class LineBreakShortcutTests: XCTestCase {
    func testOneLineShortcutMatchesTheGreedyBreaking() throws {
        let face = try defaultStyleFonts().body
        let words = ["Card", "4711", "Ålesund", "fjord", "مرحبا", "שלום", "你好世界", "  ", "—", "e\u{301}"]
        let breakers = ["\u{2028}", "\u{0C}", "\r", "\u{0B}", "\u{85}"]
        var random = SplitMix64(seed: 31)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var shortcut = 0
        for round in 0..<400 {
            var text = below(5) == 0 ? "  " : ""
            for index in 0..<(1 + below(5)) {
                if index > 0 { text += below(8) == 0 ? breakers[below(breakers.count)] : " " }
                text += words[below(words.count)]
            }
            if below(4) == 0 { text += "   " }
            if round % 40 == 0 { text = String(repeating: " ", count: 1 + below(4)) }
            let paragraph = ShapedParagraph(text, face: face, direction: .auto)
            let whole = paragraph.width(0..<paragraph.scalars.count)
            for width in [whole * 0.5, whole - 1, whole, whole + 0.5, whole * 2, 1] where width > 0 {
                let breaker = LineBreaker(paragraph, maximumWidth: width)
                for limit in [0, 1, 3] {
                    let lines = breaker.lines(limit: limit)
                    XCTAssertEqual(lines, breaker.greedyLines(limit: limit), "\(text.debugDescription) at \(width)")
                    if limit > 0, lines.count == 1 { shortcut += 1 }
                }
            }
        }
        XCTAssertGreaterThan(shortcut, 500, "the shortcut's case came up")
    }
}
