import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// A deck may give a card up to 100,000 pixels of height. Its surface is kept in tiles (the few a
/// frame shows), so such a card neither takes its whole height in memory nor loses its corners.
final class TallCardTests: XCTestCase {
    /// A tall surface with boxes crossing tile edges, composited tile by tile, gives the same
    /// pixels as the whole surface painted at once, through any window of rows (a band's clip).
    func testTiledSurfaceMatchesTheWholeSurface() throws {
        let surface = CardSurface(
            width: 1200, height: 5000, fill: Color(red: 200, green: 210, blue: 220), opacity: 0.9, radius: 24,
            boxes: [
                SurfaceBox(x0: 10, y0: 400, x1: 300, y1: 1100, radius: 12, color: Color(red: 250, green: 20, blue: 30)),
                SurfaceBox(
                    x0: 900, y0: 4950, x1: 1200, y1: 5000, radius: 0, color: Color(red: 0, green: 90, blue: 200)),
            ])
        XCTAssertTrue(SurfaceImages.isTiled(surface))
        let whole = try PixmanImage(format: PIXMAN_a8r8g8b8, width: surface.width, height: surface.height)
        SurfacePainter.paint(surface, into: whole)
        let surfaces = SurfaceImages()
        // The card's top at -4000 shows rows 4000..<5000 (bottom corners, several tiles), then at
        // 100 its top corners and the first tile edges; then through clipped windows of rows.
        for (top, clip) in [(-4000, nil), (100, nil), (-300, 0..<64), (-700, 200..<333), (-4100, 850..<900)]
            as [(Int32, Range<Int>?)]
        {
            let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 1280, height: 1000)
            let actual = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 1280, height: 1000)
            for image in [expected, actual] {
                var background = pixman_color_t(red: 0x1E1E, green: 0x2424, blue: 0x3030, alpha: 0xFFFF)
                var box = pixman_box32_t(x1: 0, y1: 0, x2: 1280, y2: 1000)
                pixman_image_fill_boxes(PIXMAN_OP_SRC, image.handle, &background, 1, &box)
            }
            expected.clip(toRows: clip)
            actual.clip(toRows: clip)
            pixman_image_composite32(
                PIXMAN_OP_OVER, whole.handle, nil, expected.handle, 0, 0, 0, 0, 40, top, Int32(surface.width),
                Int32(surface.height))
            try surfaces.composite(
                surface, columns: 0..<surface.width, rows: 0..<surface.height, x: 40, y: top, onto: actual)
            // The corners' boxes alone, as the cards over a plain background draw them.
            try surfaces.composite(surface, columns: 0..<30, rows: 4970..<5000, x: 40, y: top, onto: actual)
            pixman_image_composite32(
                PIXMAN_OP_OVER, whole.handle, nil, expected.handle, 0, 4970, 0, 0, 40, top + 4970, 30, 30)
            XCTAssertEqual(
                differingPixels(expected, actual), 0, "top \(top), rows \(String(describing: clip))")
        }
        XCTAssertLessThanOrEqual(
            surfaces.bytes, 1200 * 4 * SurfaceImages.tileRows * 8, "only the tiles shown are painted")
    }

    /// A card 100,000 pixels tall scrolled to its end: drawn with its bottom corners rounded (the
    /// whole surface's rows past 32,767 were beyond pixman's coordinates, and the corners were
    /// left as the background), and with the surface memory of a few tiles, not 768 MB.
    func testAHundredThousandPixelCardShowsItsEndWithRoundedCorners() throws {
        var deck = Deck()
        deck.sections = [Section(cards: [Card(id: "tall", title: "Tall", height: 100_000)])]
        let size = PixelSize(width: 640, height: 360)
        var scene = Scene(deck: deck, viewport: size)
        let renderer = try Renderer()
        let buffer = PixelBuffer(width: size.width, height: size.height)
        var list = DisplayList()
        _ = scene.scroll(to: .offset(1_000_000), duration: 0, curve: .linear, tag: 1)
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0.1), into: &list)
        try renderer.render(list, deck: deck, into: buffer)
        guard let card = list.items.first(where: { if case .card = $0.content { true } else { false } }) else {
            return XCTFail("the card is not in the frame")
        }
        let left = Int(card.frame.x.rounded())
        let bottom = Int(card.frame.maxY.rounded())
        XCTAssertLessThan(bottom, size.height, "the card's end is in view")
        let background = buffer.pixel(x: left, y: bottom - 1)
        XCTAssertEqual(background, buffer.pixel(x: 2, y: size.height - 1), "the corner's outside is the background")
        XCTAssertNotEqual(buffer.pixel(x: left + 20, y: bottom - 1), background, "the bottom row is the card's")
        XCTAssertEqual(
            buffer.pixel(x: left + 10, y: bottom - 12), buffer.pixel(x: left + 20, y: bottom - 12),
            "inside the bottom-left corner's curve is the card")
        XCTAssertNotEqual(
            buffer.pixel(x: left, y: bottom - 40), background, "the left edge above the corner is the card's")
        XCTAssertLessThanOrEqual(renderer.surfaceBytes, 32 << 20, "the card's surface is not painted whole")
    }

    /// Deleted, a card falls and turns from a raster of the whole card; a card whose raster would
    /// not fit the raster cache (here 100,000 rows) moves as it is instead, with no raster made.
    func testATallCardDeletedIsDrawnWithoutAWholeRaster() throws {
        var deck = Deck()
        deck.sections = [
            Section(cards: [Card(id: "tall", title: "Tall", height: 100_000), Card(id: "next", title: "Next")])
        ]
        let size = PixelSize(width: 640, height: 360)
        var scene = Scene(deck: deck, viewport: size)
        let renderer = try Renderer()
        let buffer = PixelBuffer(width: size.width, height: size.height)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0.1), into: &list)
        try renderer.render(list, deck: scene.deck, into: buffer)
        let before = renderer.wholeRastersMade
        try scene.deleteCard(at: 0)
        var turned = 0
        for step in 1...6 {
            let time = 0.1 + Double(step) * 0.05
            _ = scene.frame(at: FrameTime(timestamp: time, targetTimestamp: time + 1.0 / 60), into: &list)
            try renderer.render(list, deck: scene.deck, into: buffer)
            turned += list.items.filter { $0.rotation != 0 || $0.scale != 1 || $0.alpha < 1 }.count
        }
        XCTAssertGreaterThan(turned, 0, "the deletion is animated")
        XCTAssertEqual(renderer.wholeRastersMade, before, "no whole raster of the tall card was made")
    }

    private func differingPixels(_ a: PixmanImage, _ b: PixmanImage) -> Int {
        guard let pa = a.pixels?.assumingMemoryBound(to: UInt32.self),
            let pb = b.pixels?.assumingMemoryBound(to: UInt32.self)
        else { return -1 }
        var count = 0
        for index in 0..<(a.stride / 4 * a.height) where pa[index] & 0xFF_FFFF != pb[index] & 0xFF_FFFF { count += 1 }
        return count
    }
}
