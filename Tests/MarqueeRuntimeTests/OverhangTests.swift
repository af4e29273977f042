import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import XCTest

@testable import MarqueeRuntime

/// Text whose glyphs reach past its card (an element near the card's bottom with a large size,
/// or placed above its top), drawn in bands of 16 rows: the windows past the card that only the
/// glyphs reach must be drawn, with and without the fills left to the copy (`ConstantSpans`),
/// and the rows past the card where a clock ticks or a marquee moves must be redrawn. Every frame
/// is compared with the whole frame copied out.
final class OverhangTests: XCTestCase {
    private static func deck(element: String) throws -> Deck {
        try OneTemplateDecks.deck(
            element: element, text: "Qgjpqy Qgjpqy Qgjpqy Qgjpqy Qgjpqy Qgjpqy", spacing: 60)
    }

    func testTextReachingBelowItsCardIsDrawnInEveryBand() throws {
        try check(
            try Self.deck(
                element: #"{ "text": "m", "left": 40, "top": 96, "width": 500, "height": 4, "size": 56 }"#
            ))
    }

    func testTextReachingAboveItsCardIsDrawnInEveryBand() throws {
        try check(
            try Self.deck(
                element: #"{ "text": "m", "left": 40, "top": -44, "width": 500, "height": 4, "size": 40 }"#
            ))
    }

    func testAClockTickingBelowItsCardIsRedrawn() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "clock": "%H:%M:%S gjpqy", "left": 40, "top": 100, "width": 500, "height": 4, "size": 56 }"#))
    }

    func testAMarqueeMovingAboveItsCardIsRedrawn() throws {
        try check(
            try Self.deck(
                element:
                    #"{ "text": "m", "left": 40, "top": -44, "width": 300, "height": 4, "size": 40, "overflow": "marquee", "speed": 80, "pause": 0.2 }"#
            ))
    }

    private func check(_ deck: Deck) throws {
        try OneTemplateDecks.checkBandsMatchWholeFrames(
            deck, size: PixelSize(width: 640, height: 480), bandRows: 16, frames: 5)
    }
}
