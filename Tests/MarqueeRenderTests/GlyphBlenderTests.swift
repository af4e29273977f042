import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// Text over a card's plain fill is blended by `GlyphBlender`, not pixman, and must give exactly
/// what pixman gives (OVER of a solid colour through an a8 glyph mask): random masks (empty,
/// full and partial coverage, widths around the 4-pixel step), random colours (opaque and not),
/// glyphs partly off the target or outside its clip rows, over a target that is mostly the fill
/// the table was made for and partly anything else (the fourth byte included), glyphs drawn
/// over each other in turn.
final class GlyphBlenderTests: XCTestCase {
    func testGlyphsOverAFillMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 23)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var differing = 0
        for round in 0..<200 {
            let alpha = below(3) == 0 ? UInt16(below(0x10000)) : 0xFFFF
            func channel() -> UInt16 { UInt16(below(Int(alpha) + 1)) }
            let color = pixman_color_t(red: channel(), green: channel(), blue: channel(), alpha: alpha)
            let solid = try PixmanImage(solid: color)
            let fill = below(4) == 0 ? UInt32(truncatingIfNeeded: random.next()) : 0xFF00_0000 | UInt32(below(1 << 24))
            let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
            let (width, height) = (61, 37)
            let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let got = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let clip = below(3) == 0 ? below(12)..<(14 + below(24)) : nil
            expected.clip(toRows: clip)
            got.clip(toRows: clip)
            let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
            let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
            for index in 0..<(expected.stride / 4 * height) {
                let pixel = below(6) == 0 ? UInt32(truncatingIfNeeded: random.next()) : fill
                a[index] = pixel
                b[index] = pixel
            }
            for _ in 0..<(1 + below(6)) {
                let mask = try PixmanImage(format: PIXMAN_a8, width: 1 + below(23), height: 1 + below(30))
                let bytes = mask.pixels!.assumingMemoryBound(to: UInt8.self)
                for index in 0..<(mask.stride * mask.height) {
                    switch below(4) {
                    case 0: bytes[index] = 0
                    case 1: bytes[index] = 255
                    default: bytes[index] = UInt8(below(256))
                    }
                }
                let x = below(width + 20) - 10
                let y = below(height + 20) - 10
                pixman_image_composite32(
                    PIXMAN_OP_OVER, solid.handle, mask.handle, expected.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(mask.width), Int32(mask.height))
                GlyphBlender.draw(mask, x: x, y: y, onto: got, table: table)
            }
            for index in 0..<(expected.stride / 4 * height) where a[index] != b[index] {
                if differing < 5 {
                    XCTFail(
                        "round \(round), pixel \(index): pixman \(String(a[index], radix: 16)), "
                            + "GlyphBlender \(String(b[index], radix: 16))")
                }
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }
}
