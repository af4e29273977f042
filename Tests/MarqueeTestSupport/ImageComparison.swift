import Glibc
import MarqueeCore
import MarqueeRender

/// Compares a rendered frame with a reference PNG.
///
/// Tolerance: a pixel matches when each of its channels is within `channelTolerance` levels
/// of the reference; the image matches when at most `allowedMismatchFraction` of its pixels do not
/// (anti-aliasing may differ by a level between FreeType and pixman builds). On a mismatch the
/// rendered frame is written beside the reference as `NAME_err.png`, with the mismatching pixels
/// painted magenta, so a person can see what changed.
/// Set MARQUEE_UPDATE_GOLDENS=1 to (re)write the references from the current output.
public struct ImageComparison {
    public static let channelTolerance: UInt32 = 4
    public static let allowedMismatchFraction = 0.002

    public struct Outcome: CustomStringConvertible {
        public var matches: Bool
        public var mismatchedPixels: Int
        public var totalPixels: Int
        public var errorImagePath: String?
        public var description: String {
            "\(mismatchedPixels) of \(totalPixels) pixels differ by more than \(ImageComparison.channelTolerance) levels"
                + (errorImagePath.map { "; see \($0)" } ?? "")
        }
    }

    public static func compare(_ frame: PixelBuffer, withReference path: String) throws -> Outcome {
        if getenv("MARQUEE_UPDATE_GOLDENS") != nil {
            try PNGFile.write(frame, to: path)
        }
        let reference = try PNGFile.read(path)
        let total = frame.width * frame.height
        guard reference.width == frame.width, reference.height == frame.height else {
            let errorPath = errorImagePath(for: path)
            try PNGFile.write(frame, to: errorPath)
            return Outcome(matches: false, mismatchedPixels: total, totalPixels: total, errorImagePath: errorPath)
        }
        let (difference, marked) = ImageDifference.measure(
            frame, against: reference, tolerance: channelTolerance, marking: true)
        let mismatched = difference.mismatchedPixels
        let matches = Double(mismatched) <= allowedMismatchFraction * Double(total)
        var errorPath: String?
        if !matches {
            errorPath = errorImagePath(for: path)
            try PNGFile.write(marked!, to: errorPath!)
        }
        return Outcome(matches: matches, mismatchedPixels: mismatched, totalPixels: total, errorImagePath: errorPath)
    }

    static func errorImagePath(for path: String) -> String {
        (path.hasSuffix(".png") ? String(path.dropLast(4)) : path) + "_err.png"
    }
}
