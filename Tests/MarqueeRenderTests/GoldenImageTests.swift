import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Frames compared with reference PNGs (tolerance: see `ImageComparison`). A mismatch writes
/// `Goldens/NAME_err.png`. Regenerate after an intended change with MARQUEE_UPDATE_GOLDENS=1.
final class GoldenImageTests: XCTestCase {
    static let goldens = URLPath.directory(of: #filePath) + "/Goldens"

    /// The small layout and style every golden deck draws with, without sections.
    static func goldenDeck() -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(all: 16)
        deck.layout.spacing = 10
        deck.layout.cardHeight = 96
        deck.layout.headerHeight = 36
        deck.style.titleSize = 22
        deck.style.bodySize = 14
        deck.style.headerSize = 20
        deck.style.padding = 12
        deck.style.cornerRadius = 12
        deck.style.background = Color(red: 0x20, green: 0x30, blue: 0x48)
        return deck
    }

    func deck() -> Deck {
        var deck = Self.goldenDeck()
        deck.sections = [
            Section(
                title: "Departures",
                cards: [
                    Card(
                        id: "a", title: "08:42  Brightwater",
                        body: "Platform 4 · On time\nCalling at Alderley and Carrow", accent: Color(hex: "#2ea05a")),
                    Card(
                        id: "b", title: "A title far too long to fit on one line of this card",
                        body:
                            "A body that goes on and on, wrapping at word boundaries until it no longer fits and ends with an ellipsis.",
                        color: Color(hex: "#ffe9b0")),
                    Card(id: "c", title: "AVAWAY kerning", body: "Ünïcödé — ∑ ≠ €"),
                ]),
            Section(
                title: "Notices",
                cards: [Card(id: "d", title: "Lifts", body: "All platforms", color: Color(hex: "#ffffff80"))]),
        ]
        return deck
    }

    /// The frame the renderer draws of `deck` at a scroll offset (shared by every golden test).
    static func render(_ deck: Deck, size: PixelSize, offset: Double = 0) throws -> PixelBuffer {
        var scene = Scene(deck: deck, viewport: size)
        _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        let renderer = try Renderer()
        let buffer = PixelBuffer(width: size.width, height: size.height)
        try renderer.render(list, deck: deck, into: buffer)
        return buffer
    }

    static func assertGolden(
        _ buffer: PixelBuffer, _ name: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let path = Self.goldens + "/" + name + ".png"
        let outcome = try ImageComparison.compare(buffer, withReference: path)
        XCTAssertTrue(outcome.matches, "\(name): \(outcome)", file: file, line: line)
    }

    func testListTop() throws {
        try Self.assertGolden(try Self.render(deck(), size: PixelSize(width: 360, height: 300), offset: 0), "list_top")
    }

    func testListScrolledToAFractionalOffset() throws {
        try Self.assertGolden(
            try Self.render(deck(), size: PixelSize(width: 360, height: 300), offset: 170.5), "list_scrolled")
    }

    /// Keyframes by viewport position: the top card faded, shrunk, tilted and shifted; the bottom
    /// one tinted (SPEC §4 and §6: pixman affine transform with bilinear filtering).
    func testTransformedCards() throws {
        var transformed = deck()
        var cards = CardBindings()
        cards.input = .position
        cards.opacity = Keyframes([.init(at: 0, value: 0.3), .init(at: 0.5, value: 1)])
        cards.scale = Keyframes([.init(at: 0, value: 0.6), .init(at: 0.5, value: 1)])
        cards.rotation = Keyframes([.init(at: 0, value: -0.35), .init(at: 0.5, value: 0)])
        cards.translateX = Keyframes([.init(at: 0, value: 30), .init(at: 0.5, value: 0)])
        cards.tint = ColorKeyframes(
            space: .rgb,
            keyframes: Keyframes([
                .init(at: 0.5, value: SIMD4(0, 0.4, 1, 0)), .init(at: 1, value: SIMD4(0, 0.4, 1, 0.6)),
            ]))
        transformed.bindings.cards = cards
        try Self.assertGolden(
            try Self.render(transformed, size: PixelSize(width: 360, height: 300), offset: 40), "transformed")
    }

    /// Mid-transition: card "a" deleted (falling, turned and fading on top) while a new card grows
    /// in place of "b", which slides down.
    func testMidTransition() throws {
        let size = PixelSize(width: 360, height: 300)
        var scene = Scene(deck: deck(), viewport: size)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        try scene.deleteCard(at: 0)
        try scene.insertCard(Card(id: "grow", title: "Growing", color: Color(hex: "#c8f0d0")), at: 1)
        _ = scene.frame(at: FrameTime(timestamp: 1, targetTimestamp: 2), into: &list)
        _ = scene.frame(at: FrameTime(timestamp: 2, targetTimestamp: 2.2), into: &list)
        let renderer = try Renderer()
        let buffer = PixelBuffer(width: size.width, height: size.height)
        try renderer.render(list, deck: scene.deck, into: buffer)
        try Self.assertGolden(buffer, "mid_transition")
    }

    func testGrid() throws {
        var grid = deck()
        grid.layout.kind = .grid
        grid.layout.columns = 2
        try Self.assertGolden(try Self.render(grid, size: PixelSize(width: 480, height: 300), offset: 0), "grid_top")
    }
}

/// Path helpers without Foundation.
enum URLPath {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}
