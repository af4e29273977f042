import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Colour emoji: Noto Color Emoji (one 109 px CBDT strike) opens at any size, its glyphs are drawn
/// in their own colours at the text size by every text path, and fallback takes emoji from it while
/// the text around them stays in the style's font.
final class ColorEmojiTests: XCTestCase {
    static let grinning = "\u{1F600}"
    static let size = PixelSize(width: 320, height: 120)

    /// One card, title only: white text on a dark card, so a yellow pixel can only be emoji.
    static func deck(title: String, titleSize: Double = 40) -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(all: 10)
        deck.layout.cardHeight = 100
        deck.style.titleSize = titleSize
        deck.style.padding = 12
        deck.style.textColor = Color(red: 0xFF, green: 0xFF, blue: 0xFF)
        deck.style.cardColor = Color(red: 0x20, green: 0x20, blue: 0x28)
        deck.style.background = Color(red: 0x10, green: 0x10, blue: 0x10)
        deck.sections = [Section(cards: [Card(id: "e", title: title)])]
        return deck
    }

    /// The deck's first frame, drawn by `renderer` (a new one by default) into a new buffer.
    static func render(_ deck: Deck, with renderer: Renderer? = nil) throws -> PixelBuffer {
        var scene = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        let buffer = PixelBuffer(width: size.width, height: size.height)
        try (renderer ?? Renderer()).render(list, deck: deck, into: buffer)
        return buffer
    }

    static func channels(_ pixel: UInt32) -> (red: Int, green: Int, blue: Int) {
        (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    /// Saturated yellow to orange: the grinning face's skin. Neither the white text nor the grey
    /// card nor a .notdef box outline (drawn in the text color) is.
    static func isYellow(_ pixel: UInt32) -> Bool {
        let (red, green, blue) = channels(pixel)
        return red > 180 && green > 120 && blue < 90
    }

    /// Pixels of `buffer` that differ from `other`, and the box around them.
    static func difference(_ buffer: PixelBuffer, _ other: PixelBuffer) -> (count: Int, box: (Int, Int, Int, Int)?) {
        var count = 0
        var box: (Int, Int, Int, Int)?
        for y in 0..<buffer.height {
            for x in 0..<buffer.width where buffer.pixel(x: x, y: y) != other.pixel(x: x, y: y) {
                count += 1
                box =
                    box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return (count, box)
    }

    func testNotoColorEmojiOpensAtAnySizeWithAdvancesAtTheTextSize() throws {
        let path = try FontLocator().path(for: "Noto Color Emoji")
        let library = try FreeTypeLibrary()
        var advances: [Int: Double] = [:]
        for pixels in [12, 24, 48, 109, 200] {
            let face = try FontFace(library: library, path: path, pixelSize: pixels)
            XCTAssertTrue(face.hasColor)
            XCTAssertEqual(face.bitmapScale, Double(pixels) / 109, accuracy: 0.001, "the 109 px strike, scaled")
            let runs = TextLayout.shapedRuns(Self.grinning, face: face)
            XCTAssertEqual(runs.count, 1)
            XCTAssertEqual(runs[0].glyphs.count, 1)
            let glyph = runs[0].glyphs[0]
            advances[pixels] = glyph.advance
            // Noto Color Emoji's advance is 2550/2048 em.
            XCTAssertEqual(glyph.advance, Double(pixels) * 2550 / 2048, accuracy: 0.05, "at \(pixels) px")
            let image = try XCTUnwrap(face.glyph(glyph.index).color, "a colour image, not a coverage mask")
            XCTAssertNil(face.glyph(glyph.index).mask)
            // The strike's bitmaps are 136 x 128 px at 109 ppem.
            XCTAssertEqual(Double(image.height), Double(pixels) * 128 / 109, accuracy: 1.01, "at \(pixels) px")
        }
        XCTAssertEqual(advances[48]!, 2 * advances[24]!, accuracy: 0.05)
    }

    func testFallbackTakesEmojiFromTheColourFontAndKeepsTextInTheStylesFont() throws {
        let fonts = try defaultStyleFonts()
        let body = fonts.body
        // DejaVu Sans (the style's font) has a black-and-white U+1F600 and U+263A of its own.
        XCTAssertNotEqual(body.glyphIndex(for: "\u{1F600}"), 0)
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
        let text = "Hi \(Self.grinning) 12 \u{263A}\u{FE0F} \(family) end"
        let runs = TextLayout.shapedRuns(text, face: body)
        let scalars = Array(text.unicodeScalars)
        func run(at scalar: Int) -> ShapedRun { runs.first { $0.scalars.contains(scalar) }! }
        func isEmojiFont(_ face: FontFace) -> Bool { face.path.hasSuffix("NotoColorEmoji.ttf") }
        for (offset, value) in scalars.enumerated() {
            let face = run(at: offset).face
            let emoji =
                [0x1F600, 0x263A, 0xFE0F, 0x1F468, 0x200D, 0x1F469, 0x1F467].contains(value.value)
            XCTAssertEqual(
                isEmojiFont(face), emoji, "U+\(String(value.value, radix: 16)) at \(offset) from \(face.path)")
        }
        // The family (a ZWJ sequence) is one glyph: HarfBuzz shaped it in the emoji font.
        let familyStart = scalars.firstIndex(of: "\u{1F468}")!
        let familyGlyphs = run(at: familyStart).glyphs.filter { (familyStart..<familyStart + 5).contains($0.cluster) }
        XCTAssertEqual(familyGlyphs.count, 1, "\(familyGlyphs)")
        XCTAssertNotEqual(familyGlyphs.first?.index, 0)
    }

    func testAnEmojiOnACardIsDrawnInItsOwnColoursAtTheTextSize() throws {
        let titleSize = 40.0
        let blank = try Self.render(Self.deck(title: " ", titleSize: titleSize))
        let emoji = try Self.render(Self.deck(title: Self.grinning, titleSize: titleSize))
        let (_, box) = Self.difference(emoji, blank)
        let (x0, y0, x1, y1) = try XCTUnwrap(box, "the emoji drew something")
        var yellow = 0
        var white = 0
        for y in y0..<y1 {
            for x in x0..<x1 {
                let pixel = emoji.pixel(x: x, y: y)
                if Self.isYellow(pixel) { yellow += 1 }
                let (red, green, blue) = Self.channels(pixel)
                if red > 240, green > 240, blue > 240 { white += 1 }
            }
        }
        let area = (x1 - x0) * (y1 - y0)
        XCTAssertGreaterThan(yellow, area / 3, "mostly yellow: \(yellow) of \(area) in \(box!)")
        XCTAssertLessThan(white, area / 20, "not drawn in the white text color: \(white) of \(area)")
        // The face's ink is nearly the whole em: within 15 % of the text size, both ways.
        XCTAssertEqual(Double(y1 - y0), titleSize, accuracy: 0.15 * titleSize, "ink height of \(box!)")
        XCTAssertEqual(Double(x1 - x0), titleSize, accuracy: 0.15 * titleSize, "ink width of \(box!)")
    }

    func testLatinTextBesideAnEmojiIsUnchanged() throws {
        let alone = try Self.render(Self.deck(title: "Gate 4"))
        let beside = try Self.render(Self.deck(title: "Gate 4 \(Self.grinning)"))
        let (_, box) = Self.difference(beside, alone)
        let (x0, _, _, _) = try XCTUnwrap(box)
        // Everything left of the emoji is the same pixels as the text drawn alone.
        let textRight = try XCTUnwrap(Self.difference(alone, try Self.render(Self.deck(title: " "))).box).2
        XCTAssertGreaterThan(x0, textRight, "the emoji starts right of the text's ink, which did not change")
    }

    /// A card's first frame is drawn glyph by glyph; when it is seen again its cached text layers
    /// are used (8-bit coverage and the colour glyphs beside them). Both must give the same pixels.
    func testTheTextLayerPathAndTheGlyphByGlyphPathAgreeForACardWithEmoji() throws {
        let deck = Self.deck(title: "Tåg \(Self.grinning) 7\u{FE0F}\u{20E3}!", titleSize: 30)
        let renderer = try Renderer()
        let first = try Self.render(deck, with: renderer)
        let second = try Self.render(deck, with: renderer)
        XCTAssertEqual(renderer.rasterizedCardCount, 1, "the second frame made the card's text layer")
        let (count, box) = Self.difference(first, second)
        XCTAssertEqual(count, 0, "pixels differ in \(String(describing: box))")
        XCTAssertTrue(
            (0..<Self.size.height).contains { y in
                (0..<Self.size.width).contains { Self.isYellow(second.pixel(x: $0, y: y)) }
            }, "the layer path drew the emoji in colour")
    }

    /// A faded card is drawn from one raster of the whole card, and a section header by
    /// `HeaderPainter`: both show emoji in colour too.
    func testFadedCardsAndHeadersDrawEmojiInColour() throws {
        var deck = Self.deck(title: "Faded \(Self.grinning)")
        var bindings = CardBindings()
        bindings.input = .position
        bindings.opacity = Keyframes([.init(at: 0, value: 0.9), .init(at: 1, value: 0.9)])
        deck.bindings.cards = bindings
        deck.layout.headerHeight = 30
        deck.style.headerSize = 24
        deck.sections[0].title = "News \(Self.grinning)"
        let buffer = try Self.render(deck)
        func yellowRows() -> Set<Int> {
            Set(
                (0..<Self.size.height).filter { y in
                    (0..<Self.size.width).contains { Self.isYellow(buffer.pixel(x: $0, y: y)) }
                })
        }
        let rows = yellowRows()
        // The header is the top 10 + 30 rows; the card starts below it.
        XCTAssertTrue(rows.contains { $0 < 40 }, "the header's emoji in colour: \(rows.sorted())")
        XCTAssertTrue(rows.contains { $0 > 50 }, "the faded card's emoji in colour: \(rows.sorted())")
    }
}
