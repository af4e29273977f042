import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Cards and a header with colour emoji beside Latin text, compared with a reference PNG (the
/// tolerance of `ImageComparison`: 4 levels per channel, 0.2 % of pixels; a mismatch writes
/// `Goldens/emoji_cards_err.png`). Regenerate after an intended change with MARQUEE_UPDATE_GOLDENS=1.
final class ColorEmojiGoldenTests: XCTestCase {
    func testCardsWithEmoji() throws {
        var deck = GoldenImageTests.goldenDeck()
        deck.sections = [
            Section(
                title: "Today \u{2600}\u{FE0F}",
                cards: [
                    Card(
                        id: "a", title: "Party \u{1F389} at 18:00",
                        body: "Bring snacks \u{1F355}\u{1F369} and friends \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}",
                        accent: Color(hex: "#2ea05a")),
                    Card(
                        id: "b", title: "\u{1F600} Smile",
                        body: "Flags \u{1F1EF}\u{1F1F5} \u{1F1EB}\u{1F1F7}, keycap 7\u{FE0F}\u{20E3}",
                        color: Color(hex: "#ffe9b0")),
                ])
        ]
        let frame = try GoldenImageTests.render(deck, size: PixelSize(width: 360, height: 280))
        try GoldenImageTests.assertGolden(frame, "emoji_cards")
    }
}
