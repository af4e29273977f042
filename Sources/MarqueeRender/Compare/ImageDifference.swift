import MarqueeCore

/// How far one image is from another, pixel by pixel: for golden-image tests, `marquee compare`
/// and the VM tests that hold a scanned-out frame against the software rendering.
///
/// A pixel matches when each of its red, green and blue channels is within `tolerance` levels of
/// the expected one (the X byte is ignored).
public struct ImageDifference: Sendable {
    public var tolerance: UInt32
    /// Pixels with a channel further than `tolerance` from the expected one.
    public var mismatchedPixels: Int
    public var totalPixels: Int
    /// The largest difference of any channel of any pixel, in levels.
    public var largestDifference: UInt32
    /// False when the sizes differ (then every pixel counts as mismatched).
    public var sameSize: Bool

    public var mismatchedFraction: Double { totalPixels == 0 ? 0 : Double(mismatchedPixels) / Double(totalPixels) }

    /// Compares `actual` with `expected`. With `marking`, also returns a copy of `actual` with every
    /// mismatched pixel painted magenta, for a person to look at.
    public static func measure(
        _ actual: PixelBuffer, against expected: PixelBuffer, tolerance: UInt32, marking: Bool = false
    ) -> (ImageDifference, marked: PixelBuffer?) {
        let total = actual.width * actual.height
        guard actual.width == expected.width, actual.height == expected.height else {
            let difference = ImageDifference(
                tolerance: tolerance, mismatchedPixels: total, totalPixels: total, largestDifference: 255,
                sameSize: false)
            return (difference, marking ? actual : nil)
        }
        let marked: PixelBuffer? = marking ? PixelBuffer(width: actual.width, height: actual.height) : nil
        marked?.copy(from: actual)
        var mismatched = 0
        var largest: UInt32 = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let distance = channelDistance(actual.pixel(x: x, y: y), expected.pixel(x: x, y: y))
                largest = max(largest, distance)
                if distance > tolerance {
                    mismatched += 1
                    marked?.withPixels { $0[y * actual.stride + x] = 0xFFFF_00FF }
                }
            }
        }
        let difference = ImageDifference(
            tolerance: tolerance, mismatchedPixels: mismatched, totalPixels: total, largestDifference: largest,
            sameSize: true)
        return (difference, marked)
    }

    /// The largest of the three channel differences.
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var largest: UInt32 = 0
        for shift: UInt32 in [0, 8, 16] {
            let left = (a >> shift) & 0xFF
            let right = (b >> shift) & 0xFF
            largest = max(largest, left > right ? left - right : right - left)
        }
        return largest
    }

    public var summary: String {
        guard sameSize else { return "the images differ in size" }
        return
            "\(mismatchedPixels) of \(totalPixels) pixels differ by more than \(tolerance) levels (largest difference \(largestDifference))"
    }
}
