import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

final class RendererTests: XCTestCase {
    func testMissingFontsAreClearErrors() {
        XCTAssertThrowsError(try Renderer(fontOverride: "/nonexistent/font.ttf")) { error in
            XCTAssertEqual((error as? RenderError)?.code, .fontUnreadable)
            XCTAssertTrue("\(error)".contains("/nonexistent/font.ttf"))
        }
        XCTAssertThrowsError(try FontLocator().path(for: "No Such Family Anywhere")) { error in
            XCTAssertEqual((error as? RenderError)?.code, .fontNotFound)
            XCTAssertTrue("\(error)".contains("No Such Family Anywhere"))
        }
    }

    func testCardRastersAreReusedAcrossFrames() throws {
        var deck = Deck()
        deck.sections = [Section(cards: (0..<20).map { Card(id: "c\($0)", title: "Card \($0)") })]
        var scene = Scene(deck: deck, viewport: PixelSize(width: 400, height: 400))
        let renderer = try Renderer()
        let buffer = PixelBuffer(width: 400, height: 400)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0.1), into: &list)
        try renderer.render(list, deck: deck, into: buffer)
        let first = Set(list.items.map(\.content))
        XCTAssertEqual(renderer.rasterizedCardCount, 0, "a card's first appearance makes no image")
        var drawn = first
        for offset in [30.0, 75.5, 140, 90] {
            _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
            _ = scene.frame(at: FrameTime(timestamp: 0.1, targetTimestamp: 0.2), into: &list)
            try renderer.render(list, deck: deck, into: buffer)
            drawn.formUnion(list.items.map(\.content))
        }
        let made = renderer.rasterizedCardCount
        XCTAssertGreaterThan(made, 0, "cards that come back get their text layer")
        XCTAssertLessThanOrEqual(made, drawn.count)
        // The same offsets again: every card on them has its image already.
        for offset in [0.0, 30.0, 75.5, 140, 90] {
            _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
            _ = scene.frame(at: FrameTime(timestamp: 0.2, targetTimestamp: 0.3), into: &list)
            try renderer.render(list, deck: deck, into: buffer)
        }
        XCTAssertEqual(renderer.rasterizedCardCount, made, "each card's image is made once, however often it moves")
    }

    /// A card too short for one line of its body shows its title ended with "…": the same pixels
    /// as a card whose title is written with the ellipsis and that has no body.
    func testACardTooShortForItsBodyEndsItsTitleWithAnEllipsis() throws {
        func frame(_ card: Card, width: Int) throws -> PixelBuffer {
            var deck = Deck()
            deck.layout.cardHeight = 80
            deck.sections = [Section(cards: [card])]
            var scene = Scene(deck: deck, viewport: PixelSize(width: width, height: 160))
            let buffer = PixelBuffer(width: width, height: 160)
            var list = DisplayList()
            _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0.1), into: &list)
            try Renderer().render(list, deck: deck, into: buffer)
            return buffer
        }
        func differingPixels(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
            var count = 0
            for y in 0..<a.height {
                for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
            }
            return count
        }
        // 400 px wide: "Platform 4…" does not fit on the title line, "Platform…" does.
        for width in [600, 400] {
            let hidden = try frame(Card(id: "a", title: "Platform 4", body: "Next service in 3 minutes"), width: width)
            let marked = try frame(Card(id: "a", title: "Platform 4\u{2026}"), width: width)
            let unmarked = try frame(Card(id: "a", title: "Platform 4"), width: width)
            XCTAssertGreaterThan(differingPixels(unmarked, marked), 0, "the ellipsis is visible (\(width) px)")
            XCTAssertEqual(
                differingPixels(hidden, marked), 0,
                "the hidden body is marked by an ellipsis after the title, and nothing else (\(width) px)")
        }
    }

    func testPNGRoundTripAndAtomicWrite() throws {
        let buffer = PixelBuffer(width: 7, height: 5)
        buffer.withPixels { pixels in
            for i in pixels.indices { pixels[i] = 0xFF00_0000 | UInt32(i * 0x030507) & 0xFFFFFF }
        }
        let path = "/tmp/marquee-test-\(getpid()).png"
        defer { unlink(path) }
        try PNGFile.write(buffer, to: path)
        let read = try PNGFile.read(path)
        for y in 0..<5 { for x in 0..<7 { XCTAssertEqual(read.pixel(x: x, y: y), buffer.pixel(x: x, y: y)) } }
        XCTAssertThrowsError(try PNGFile.write(buffer, to: "/nonexistent-folder/a.png")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent-folder/a.png"))
        }
    }
}

final class PNGHeaderTests: XCTestCase {
    /// A PNG whose header claims `width` x `height` (with a valid CRC) and no image data.
    func png(width: UInt32, height: UInt32) -> [UInt8] {
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                c ^= UInt32(byte)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        let ihdr = Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0]
        let idat = Array("IDAT".utf8) + [0x78, 0x9C, 0x03, 0x00]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + ihdr + be(crc(ihdr)) + be(4) + idat
            + be(crc(idat))
    }

    func testAHugeClaimedSizeIsAnErrorNotAnAllocation() throws {
        let path = "/tmp/marquee-huge-\(getpid()).png"
        defer { unlink(path) }
        let bytes = png(width: 1_000_000, height: 1_000_000)
        let file = fopen(path, "wb")!
        fwrite(bytes, 1, bytes.count, file)
        fclose(file)
        XCTAssertThrowsError(try PNGFile.read(path)) {
            XCTAssertTrue("\($0)".contains("1000000x1000000 is larger than 16384x16384"), "\($0)")
        }
    }
}
