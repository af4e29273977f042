import ArgumentParser
import MarqueeCore
import MarqueeRuntime

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the SPEC §10 bench scene into memory and report frame times.",
        discussion: """
            Scene cards-1080p: 10,000 cards in a list scrolling from card 0 to card 5000 in 2 s at 60 Hz (120 frames). Times are compared with a memcpy of one frame measured in the same run, since machines are shared and noisy.
            """
    )

    @Option(help: "Frame size, WxH.")
    var size: String = "1920x1080"

    @Option(help: "Frames to render (the scroll always takes 2 s of frame time).")
    var frames: Int = 120

    @Option(
        help:
            "Cards in the deck (the scroll goes to the middle card). A comma-separated list (100,1000000) measures each size in turn in this one run, one line each."
    )
    var cards: String = "10000"

    var cardCounts: [Int] { cards.split(separator: ",").compactMap { Int($0) } }

    @Option(
        name: .customLong("scroll-to-card"),
        help:
            "The card the scroll ends at (default: the middle card). Give the same card with different --cards to compare deck sizes on the same scroll."
    )
    var scrollToCard: Int?

    @Flag(
        help:
            "Also time the DRM and fbdev backends' scan-out stage (row hashing and the copy of changed rows, for each --rotate and for RGB565) on each frame, into ordinary memory."
    )
    var scanout = false

    @Flag(help: "Print one JSON line instead of a table.")
    var json = false

    func validate() throws {
        guard PixelSize(parsing: size) != nil else { throw ValidationError("--size must be WxH (got \"\(size)\")") }
        guard frames >= 1, frames <= 100_000 else { throw ValidationError("--frames must be from 1 to 100000") }
        let counts = cardCounts
        guard !counts.isEmpty, counts.count == cards.split(separator: ",").count,
            counts.allSatisfy({ $0 >= 2 && $0 <= 10_000_000 })
        else {
            throw ValidationError(
                "--cards must be a number of cards from 2 to 10000000, or a comma-separated list of them")
        }
        if let scrollToCard, let smallest = counts.min(), !(0..<smallest).contains(scrollToCard) {
            throw ValidationError("--scroll-to-card must be a card of every deck (0 to \(smallest - 1))")
        }
    }

    func run() throws {
        for count in cardCounts {
            let result: BenchRunner.Result
            do throws(RuntimeError) {
                result = try BenchRunner(
                    size: PixelSize(parsing: size)!, frames: frames, cards: count, targetCard: scrollToCard,
                    measuresScanout: scanout
                ).run()
            } catch {
                Log.error(error.message)
                throw ExitCode.failure
            }
            print(json ? result.jsonLine : result.table)
        }
    }
}
