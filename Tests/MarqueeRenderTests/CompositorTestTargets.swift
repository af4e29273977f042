import CPixman
import MarqueeCore

@testable import MarqueeRender

/// What the turned-card tests draw onto: a target of one plain color with random pixels among it
/// (the fourth byte too, which the compositor must leave as pixman does), and an identical copy
/// for pixman's reference drawing of the same card.
struct CompositorTestTargets {
    let width: Int
    let height: Int
    /// The target Marquee's compositor draws onto.
    let own: PixmanImage
    /// The copy pixman draws onto.
    let reference: PixmanImage

    /// `oddOneIn`: one pixel in that many (on average) random, the rest the plain color.
    init(width: Int, height: Int, oddOneIn: Int, random: inout SplitMix64) throws {
        self.width = width
        self.height = height
        own = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let under = own.pixels!.assumingMemoryBound(to: UInt32.self)
        let plain = UInt32(truncatingIfNeeded: random.next())
        for index in 0..<(width * height) {
            let odd = random.next() % UInt64(oddOneIn) == 0
            under[index] = odd ? UInt32(truncatingIfNeeded: random.next()) : plain
        }
        reference = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        reference.pixels!.copyMemory(from: own.pixels!, byteCount: own.byteCount)
    }

    /// How many pixels of the two targets differ, and where the first is, with both values.
    func differences() -> (count: Int, first: String?) {
        let ours = own.pixels!.assumingMemoryBound(to: UInt32.self)
        let expected = reference.pixels!.assumingMemoryBound(to: UInt32.self)
        var count = 0
        var first: String?
        for index in 0..<(width * height) where ours[index] != expected[index] {
            count += 1
            if first == nil {
                first =
                    "at (\(index % width), \(index / width)): "
                    + "\(String(ours[index], radix: 16)) instead of \(String(expected[index], radix: 16))"
            }
        }
        return (count, first)
    }
}
