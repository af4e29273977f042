import MarqueeCore
import XCTest

@testable import MarqueeRender

/// A card seen again is drawn from its text layers; over the card's plain fill each layer goes
/// through the fill's blend table (`GlyphBlender`) rather than through pixman. Both must give the
/// same pixels: a scroll over cards with titles and bodies in opaque and translucent colours, on
/// translucent and opaque cards and a card colour of its own, rendered once with the table path
/// and once with pixman, every frame compared.
final class TextLayerBlendTests: XCTestCase {
    func testTextLayersBlendedThroughTheFillTableMatchPixman() throws {
        var deck = Deck()
        deck.layout.cardHeight = 90
        deck.layout.spacing = 10
        deck.layout.insets = EdgeInsets(all: 12)
        deck.style.titleSize = 26
        deck.style.bodySize = 17
        deck.style.textColor = Color(red: 0x20, green: 0x40, blue: 0x90, alpha: 0xB0)
        deck.sections = [
            Section(
                cards: (0..<14).map { index in
                    var card = Card(
                        id: "c\(index)", title: "Platform \(index) — Gåteborg",
                        body: "Calling at Alingsås, Herrljunga and Skövde \(index * 7) min")
                    if index % 3 == 1 { card.color = Color(red: 0x30, green: 0x90, blue: 0x50, alpha: 0xFF) }
                    return card
                })
        ]
        let size = PixelSize(width: 480, height: 320)
        func frames(blending: Bool) throws -> (frames: [PixelBuffer], blended: Int) {
            let renderer = try Renderer()
            renderer.blendsTextLayers = blending
            var scene = Scene(deck: deck, viewport: size)
            var list = DisplayList()
            var out: [PixelBuffer] = []
            // Offsets that come back: the cards on them are drawn glyph by glyph, then get their
            // layers, then are drawn from them.
            for offset in [0.0, 0, 0, 13, 41.5, 97, 41.5, 13, 0, 150, 97] {
                _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
                _ = scene.frame(at: FrameTime(timestamp: 0.1, targetTimestamp: 0.2), into: &list)
                let buffer = PixelBuffer(width: size.width, height: size.height)
                try renderer.render(list, deck: deck, into: buffer)
                out.append(buffer)
            }
            return (out, renderer.textLayersBlended)
        }
        let table = try frames(blending: true)
        let pixman = try frames(blending: false)
        XCTAssertGreaterThan(table.blended, 20, "the scroll drew cards from their text layers through the table")
        XCTAssertEqual(pixman.blended, 0)
        for (index, (a, b)) in zip(table.frames, pixman.frames).enumerated() {
            var differing = 0
            for y in 0..<size.height {
                for x in 0..<size.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "frame \(index): pixels differ from pixman's")
        }
    }
}
