import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// `play ... wrap=loop` and the ticker draw the deck as if it repeated: the rendered frames across
/// the seam equal, pixel for pixel, those of a deck that holds its cards twice.
final class LoopRenderTests: XCTestCase {
    func testTheSeamLooksLikeTheDeckTwice() throws {
        let size = PixelSize(width: 480, height: 360)
        var deck = Deck()
        deck.layout.cardHeight = 100
        deck.layout.spacing = 20
        deck.sections = [Section(cards: (0..<4).map { Card(id: "c\($0)", title: "Card \($0)", body: "Row \($0)") })]
        var doubled = deck
        for card in Array(deck.sections[0].cards) {
            var again = card
            again.id += "-again"
            doubled.sections[0].cards.append(again)
        }
        var looping = Scene(deck: deck, viewport: size)
        var reference = Scene(deck: doubled, viewport: size)
        let loopRenderer = try Renderer()
        let referenceRenderer = try Renderer()
        let loopFrame = PixelBuffer(width: size.width, height: size.height)
        let referenceFrame = PixelBuffer(width: size.width, height: size.height)
        var loopList = DisplayList()
        var referenceList = DisplayList()
        _ = looping.play(PlaybackSettings(mode: .ticker, speed: 100), now: 0)
        // The deck repeats every 480 px; its end (offset 140) is reached at 1.4 s, and the first
        // card is back at the top at 4.8 s. Frames every 0.2 s from 0 to 5.6 s.
        for step in 0...28 {
            let target = Double(step) * 0.2
            let time = FrameTime(timestamp: target - 1.0 / 60, targetTimestamp: target)
            _ = looping.frame(at: time, into: &loopList)
            let offset = loopList.offset
            _ = reference.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
            _ = reference.frame(at: time, into: &referenceList)
            XCTAssertEqual(referenceList.offset, offset, accuracy: 1e-9, "the doubled deck reaches offset \(offset)")
            try loopRenderer.render(loopList, deck: looping.deck, into: loopFrame)
            try referenceRenderer.render(referenceList, deck: reference.deck, into: referenceFrame)
            var differing = 0
            for y in 0..<size.height {
                for x in 0..<size.width where loopFrame.pixel(x: x, y: y) != referenceFrame.pixel(x: x, y: y) {
                    differing += 1
                }
            }
            XCTAssertEqual(differing, 0, "pixels that differ at \(target) s (offset \(offset))")
        }
    }
}
