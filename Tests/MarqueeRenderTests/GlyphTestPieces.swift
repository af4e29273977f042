import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The random pieces both glyph blend tests (`GlyphBlenderTests`, `BlendedGlyphTests`) draw with,
/// taken from the test's own random source.
enum GlyphTestPieces {
    static func below(_ bound: Int, _ random: inout SplitMix64) -> Int { Int(random.next() % UInt64(bound)) }

    /// A text colour, opaque two times in three, its channels within its alpha.
    static func color(_ random: inout SplitMix64) -> pixman_color_t {
        let alpha = below(3, &random) == 0 ? UInt16(below(0x10000, &random)) : 0xFFFF
        func channel() -> UInt16 { UInt16(below(Int(alpha) + 1, &random)) }
        return pixman_color_t(red: channel(), green: channel(), blue: channel(), alpha: alpha)
    }

    /// Two identical targets (pixman's and the blender's), `fill` but for one pixel in `strayOneIn`
    /// (any value, the fourth byte too), both clipped to the same random rows one time in three.
    static func targets(width: Int, height: Int, fill: UInt32, strayOneIn: Int, _ random: inout SplitMix64) throws
        -> (expected: PixmanImage, got: PixmanImage)
    {
        let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let got = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let clip = below(3, &random) == 0 ? below(12, &random)..<(14 + below(24, &random)) : nil
        expected.clip(toRows: clip)
        got.clip(toRows: clip)
        let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
        let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(expected.stride / 4 * height) {
            let pixel = below(strayOneIn, &random) == 0 ? UInt32(truncatingIfNeeded: random.next()) : fill
            a[index] = pixel
            b[index] = pixel
        }
        return (expected, got)
    }

    /// An 8-bit mask of 1 to `widths` x 1 to `heights` pixels: a quarter of its bytes empty, a
    /// quarter full, the rest partial.
    static func mask(widths: Int, heights: Int, _ random: inout SplitMix64) throws -> PixmanImage {
        let mask = try PixmanImage(
            format: PIXMAN_a8, width: 1 + below(widths, &random), height: 1 + below(heights, &random))
        let bytes = mask.pixels!.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<(mask.stride * mask.height) {
            switch below(4, &random) {
            case 0: bytes[offset] = 0
            case 1: bytes[offset] = 255
            default: bytes[offset] = UInt8(below(256, &random))
            }
        }
        return mask
    }

    /// How many pixels of the two targets differ; the first five (counted across rounds from
    /// `before`) fail the test with both values.
    static func differing(
        _ expected: PixmanImage, _ got: PixmanImage, round: Int, drawnBy name: String, before: Int
    ) -> Int {
        let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
        let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
        var count = 0
        for index in 0..<(expected.stride / 4 * expected.height) where a[index] != b[index] {
            if before + count < 5 {
                XCTFail(
                    "round \(round), pixel \(index): pixman \(String(a[index], radix: 16)), "
                        + "\(name) \(String(b[index], radix: 16))")
            }
            count += 1
        }
        return count
    }
}
