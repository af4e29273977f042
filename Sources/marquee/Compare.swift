import ArgumentParser
import MarqueeCore
import MarqueeRender
import MarqueeRuntime

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two PNG images (a snapshot against a golden one) within a tolerance.",
        discussion: """
            A pixel matches when each of its red, green and blue channels is within --tolerance levels of the expected image's. Exits 0 when at most --max-differing percent of the pixels do not match, 1 when more do (or the sizes differ), 2 when an image cannot be read. With --diff, writes the actual image with the mismatched pixels painted magenta.

            Example (a deck tested in CI):
              printf 'scroll-to 12\\nwait idle\\nsnapshot now.png\\n' | marquee run --deck board.json --size 800x480
              marquee compare golden.png now.png --tolerance 4 --max-differing 0.2 --diff now_err.png
            """
    )

    @Argument(help: "The expected image (PNG).")
    var expected: String

    @Argument(help: "The image to check (PNG).")
    var actual: String

    @Option(parsing: .unconditional, help: "Levels (0-255) a channel may differ by and still match.")
    var tolerance: Int = 0

    @Option(name: .customLong("max-differing"), parsing: .unconditional, help: "Percent of pixels that may mismatch.")
    var maxDiffering: Double = 0

    @Option(
        help:
            "Write the actual image with mismatched pixels painted magenta to this PNG when they differ. Refused if it is one of the two images or exists and is not a regular file."
    )
    var diff: String?

    func validate() throws {
        guard (0...255).contains(tolerance) else { throw ValidationError("--tolerance must be from 0 to 255") }
        guard maxDiffering.isFinite, (0...100).contains(maxDiffering) else {
            throw ValidationError("--max-differing must be a percentage from 0 to 100")
        }
        if let diff,
            let conflict = OutputPaths.conflict(
                output: diff, flag: "--diff",
                inputs: [("the expected image", expected), ("the image to check", actual)])
        {
            throw ValidationError(conflict)
        }
        if let diff, let refusal = OutputPaths.notReplaceable(output: diff, flag: "--diff") {
            throw ValidationError(refusal)
        }
    }

    func run() throws {
        let expectedImage: PixelBuffer
        let actualImage: PixelBuffer
        do {
            expectedImage = try PNGFile.read(expected)
            actualImage = try PNGFile.read(actual)
        } catch {
            Log.error(error.message)
            throw ExitCode(2)
        }
        let (difference, marked) = ImageDifference.measure(
            actualImage, against: expectedImage, tolerance: UInt32(tolerance), marking: diff != nil)
        let matches = difference.sameSize && difference.mismatchedFraction * 100 <= maxDiffering
        var line = "\(actual) against \(expected): \(difference.summary)"
        if !difference.sameSize {
            line +=
                " (\(actualImage.width)x\(actualImage.height) against \(expectedImage.width)x\(expectedImage.height))"
        }
        print(line + (matches ? ": match" : ": MISMATCH"))
        if !matches, let diff, let marked {
            do { try PNGFile.write(marked, to: diff) } catch { Log.error(error.message) }
        }
        if !matches { throw ExitCode.failure }
    }
}
