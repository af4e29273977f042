import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// Marquee's own compositor for turned cards must give exactly what pixman gives for the same
/// card, transform and opacity (the SPEC's "pixman does this"): on random rasters (a plain fill
/// with random pixels and transparent margins, as cards have), random frames partly off the
/// target, turns, scales and opacities, over random targets (the fourth byte included).
final class TurnedCardCompositorTests: XCTestCase {
    func testTurnedCardsMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 11)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        func premultiplied() -> UInt32 {
            let alpha = UInt32(below(256))
            func channel() -> UInt32 { UInt32(below(Int(alpha) + 1)) }
            return alpha << 24 | channel() << 16 | channel() << 8 | channel()
        }
        var differing = 0
        for round in 0..<120 {
            let width = 8 + below(150)
            let height = 4 + below(70)
            let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let fill = below(4) == 0 ? 0xFF00_0000 | UInt32(below(1 << 24)) : premultiplied()
            let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
            let margin = below(4)
            for y in 0..<height {
                for x in 0..<width {
                    let inside = x >= margin && y >= margin && x < width - margin && y < height - margin
                    pixels[y * raster.stride / 4 + x] = !inside ? 0 : below(8) == 0 ? premultiplied() : fill
                }
            }
            let target = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 160, height: 120)
            let under = target.pixels!.assumingMemoryBound(to: UInt32.self)
            let plain = UInt32(truncatingIfNeeded: random.next())
            for index in 0..<(160 * 120) {
                under[index] = below(5) == 0 ? UInt32(truncatingIfNeeded: random.next()) : plain
            }
            let reference = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 160, height: 120)
            reference.pixels!.copyMemory(from: target.pixels!, byteCount: target.byteCount)

            var item = DisplayList.Item(
                content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
                frame: Rect(
                    x: Double(below(200)) - 50 + unit(), y: Double(below(150)) - 40 + unit(), width: Double(width),
                    height: Double(height)))
            item.rotation = (unit() - 0.5) * 1.2
            if item.rotation == 0 { item.rotation = 0.01 }
            item.scale = below(3) == 0 ? 1 : 0.5 + unit()
            item.alpha = below(3) == 0 ? 1 : 0.02 + unit()

            try CardCompositor.draw(raster, item, onto: target, turnedCards: .own)
            try CardCompositor.draw(raster, item, onto: reference, turnedCards: .pixman)
            let expected = reference.pixels!.assumingMemoryBound(to: UInt32.self)
            var firstDifference: String?
            for index in 0..<(160 * 120) where under[index] != expected[index] {
                differing += 1
                if firstDifference == nil {
                    firstDifference =
                        "at (\(index % 160), \(index / 160)): "
                        + "\(String(under[index], radix: 16)) instead of \(String(expected[index], radix: 16))"
                }
            }
            if let firstDifference {
                XCTFail(
                    "round \(round) (\(width)x\(height), rotation \(item.rotation), scale \(item.scale), "
                        + "alpha \(item.alpha)): \(firstDifference)")
            }
        }
        XCTAssertEqual(differing, 0)
    }

    /// The test above would pass if neither path drew anything: a turned opaque card must cover
    /// the target's pixels at its center.
    func testATurnedCardIsDrawn() throws {
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 40, height: 20)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(raster.stride / 4 * 20) { pixels[index] = 0xFF11_2233 }
        let target = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 100, height: 100)
        var item = DisplayList.Item(
            content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
            frame: Rect(x: 30, y: 40, width: 40, height: 20))
        item.rotation = 0.3
        try CardCompositor.draw(raster, item, onto: target, turnedCards: .own)
        let drawn = target.pixels!.assumingMemoryBound(to: UInt32.self)
        XCTAssertEqual(drawn[50 * 100 + 50], 0xFF11_2233)
        XCTAssertEqual(drawn[5 * 100 + 5], 0)
    }
}
