import ArgumentParser
import MarqueeCore
import MarqueeRuntime

extension BenchScene: ExpressibleByArgument {}

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render a bench scene into memory and report frame times.",
        discussion: """
            Scenes (--scene), all at 60 Hz:
              cards-1080p        the reference scene: 10,000 cards scrolling from card 0 to 5000 in 2 s (120 frames)
              cards-1080p-slow   the same deck scrolling 12 cards in 2 s
              cards-1080p-world  cards-1080p with titles and bodies in Arabic, Hebrew, Hindi,
                                 Chinese and Latin, one script per card in turn
              departures-1080p   cards-1080p's scroll over 10,000 cards of the departure template
                                 (columns, coloured status, logo placeholder, marquee "calling at")
              transitions-1080p  3 inserts and 3 deletes in view, over 0.35 s (21 frames)
              update-1080p       1 card in view updated in place, over 0.35 s; the rest stands still
              cards-spi          480x320, 12 cards in 2 s, each frame converted to RGB565 as fbdev does
            Times are compared with a memcpy of one frame measured in the same run, since machines are shared and noisy. docs/performance.md has the last figures.
            """
    )

    @Option(
        help:
            "The scene: cards-1080p, cards-1080p-slow, cards-1080p-world, departures-1080p, transitions-1080p, update-1080p or cards-spi."
    )
    var scene: BenchScene = .cards1080p

    @Option(help: "Frame size, WxH (default: the scene's, 1920x1080 or 480x320).")
    var size: String?

    @Option(help: "Frames to render over the scene's duration (default: one per 60 Hz vblank).")
    var frames: Int?

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

    @Flag(
        name: .customLong("frame-times"),
        help: "With --json, also list every timed frame's milliseconds in order (frame_ms), to find the slow ones.")
    var frameTimes = false

    func validate() throws {
        if let size, PixelSize(parsing: size) == nil { throw ValidationError("--size must be WxH (got \"\(size)\")") }
        if let frames, !(1...100_000).contains(frames) {
            throw ValidationError("--frames must be from 1 to 100000")
        }
        if frameTimes, !json { throw ValidationError("--frame-times needs --json") }
        if scene.edits, scrollToCard != nil {
            throw ValidationError("--scroll-to-card does not apply to \(scene.rawValue) (it does not scroll)")
        }
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
            var result: BenchRunner.Result
            do throws(RuntimeError) {
                result = try BenchRunner(
                    scene: scene, size: size.flatMap(PixelSize.init(parsing:)), frames: frames, cards: count,
                    targetCard: scrollToCard, measuresScanout: scanout
                ).run()
            } catch {
                Log.error(error.message)
                throw ExitCode.failure
            }
            result.listsFrameTimes = frameTimes
            print(json ? result.jsonLine : result.table)
        }
    }
}
