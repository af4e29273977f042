import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Foregrounds that reach past their element's box, drawn in bands with the fills left to the
/// copy (`ConstantSpans`): every glyph must reach the scan-out buffer, as the whole frame copied
/// out shows it. A marquee is drawn at its line's ink rows, which a box shorter than the text
/// does not hold; a clock's line is laid out anew each second and may reach past its card.
final class SpanForegroundTests: XCTestCase {
    private static func deck(element: String) throws -> Deck {
        try OneTemplateDecks.deck(
            element: element, text: String(repeating: "gjpqy Qgjy ", count: 12), spacing: 12)
    }

    func testAMarqueeInABoxShorterThanItsTextIsDrawnWhole() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "text": "m", "left": 40, "top": 10, "right": 40, "height": 4, "size": 40, "overflow": "marquee", "speed": 80, "pause": 0.2 }"#
            ))
    }

    func testAClockReachingPastItsCardIsDrawnWhole() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "clock": "%H:%M:%S gjpqy", "left": 40, "bottom": 0, "width": 400, "height": 4, "size": 40 }"#))
    }

    private func check(_ deck: Deck) throws {
        try OneTemplateDecks.checkBandsMatchWholeFrames(
            deck, size: PixelSize(width: 640, height: 360), bandRows: 64, frames: 4)
    }
}
