import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// A multilingual board compared with a reference PNG (the tolerance of `ImageComparison`: a
/// channel may differ by 4 levels on up to 0.2 % of the pixels; a mismatch writes
/// `Goldens/world_board_err.png`). It holds together what the text tests check piece by piece:
/// Arabic joined and right-aligned, Hebrew with its digits in bidi order, Devanagari conjuncts
/// and Chinese from the fallback fonts, and a section header laid out right to left.
final class WorldGoldenTests: XCTestCase {
    func deck() -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(all: 14)
        deck.layout.spacing = 8
        deck.layout.cardHeight = 64
        deck.layout.headerHeight = 30
        deck.style.titleSize = 20
        deck.style.bodySize = 14
        deck.style.headerSize = 20
        deck.style.padding = 10
        deck.style.cornerRadius = 10
        deck.style.background = Color(red: 0x10, green: 0x20, blue: 0x30)
        deck.sections = [
            Section(
                title: "Departures",
                cards: [
                    Card(id: "en", title: "08:40  London  BW 102", body: "Gate 12 · Boarding"),
                    Card(id: "ar", title: "08:55  دبي  BW 418", body: "البوابة 7 · في الموعد"),
                    Card(id: "he", title: "09:10  תל אביב  330", body: "שער 3 · מתעכבת עד 09:45"),
                ]),
            // Headers take the style's direction, `auto`: this one is right to left by its text.
            Section(
                title: "הודעות",
                cards: [
                    Card(id: "hi", title: "09:25  दिल्ली", body: "गेट 15 · कृपया प्रतीक्षा करें"),
                    Card(id: "zh", title: "09:40  上海浦东", body: "登机口 21 · 请提前三十分钟到达"),
                ]),
        ]
        return deck
    }

    func testMultilingualBoard() throws {
        let frame = try GoldenImageTests.render(deck(), size: PixelSize(width: 400, height: 470))
        try GoldenImageTests.assertGolden(frame, "world_board")
    }
}
