import ArgumentParser
import MarqueeCore
import MarqueeDisplay
import MarqueeRuntime

extension BackendKind: ExpressibleByArgument {}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a deck and follow commands on standard input.",
        discussion: """
            Commands (one per line; docs/protocol.md has them all):
              scroll-to TARGET [duration=S] [curve=NAME]
                  TARGET: index, S:I, id:ID, start, end, P% or offset:PX
              scroll-by N | scroll-by PXpx [duration=S] [curve=NAME]
              wait SECONDS | wait idle
              snapshot PATH.png
              load DECK.json
              insert INDEX|S:I CARD_JSON
              delete INDEX | delete id:ID
              move FROM TO
              update INDEX|id:ID CARD_JSON
              insert-section INDEX SECTION_JSON
              delete-section INDEX
              batch ... commit
              appear [stagger=S] [duration=S]
              quit

            Examples:
              marquee run --deck docs/examples/departures.json --appear
              marquee run --trace /tmp/t.jsonl < show.txt
              marquee run --realtime --deck board.json
            """
    )

    @Option(help: "auto, drm, fbdev or software. auto picks the best available and says which on stderr.")
    var backend: BackendKind = .auto

    @Option(help: "The deck file (JSON, docs/deck-format.md). Without it, a built-in demo deck is shown.")
    var deck: String?

    @Option(help: "Frame size for the software backend, WxH.")
    var size: String = "1280x720"

    @Option(help: "Refresh rate of the software backend's display link, in Hz.")
    var refresh: Double = 60

    @Flag(help: "Pace the software backend by the wall clock instead of its virtual clock.")
    var realtime = false

    @Option(name: .customLong("max-fps"), help: "Never render more often than this many frames per second.")
    var maxFPS: Double?

    @Option(help: "A font file used for all text instead of the deck's fontconfig fonts.")
    var font: String?

    @Option(help: "Write one JSON line per presented frame to this file (docs/protocol.md, \"Frame trace\").")
    var trace: String?

    @Option(
        name: .customLong("control-socket"),
        help:
            "Also take commands from clients of a Unix socket at this path (mode 0660, removed at exit; see marquee send). The software backend then keeps running after standard input ends."
    )
    var controlSocket: String?

    @Option(
        name: .customLong("restrict-paths"),
        help: "Let snapshot and load touch only files under this directory (after resolving .. and symlinks).")
    var restrictPaths: String?

    @Flag(help: "Play the appear sequence (cards appear one after another) when the deck is first shown.")
    var appear = false

    @Flag(name: .customLong("exit-on-eof"), help: "Exit when standard input ends (the software backend always does).")
    var exitOnEOF = false

    func validate() throws {
        guard PixelSize(parsing: size) != nil else {
            throw ValidationError(
                "--size must be WxH with each side from 1 to 16384, for example 1280x720 (got \"\(size)\")")
        }
        guard refresh.isFinite, refresh >= 1, refresh <= 1000 else {
            throw ValidationError("--refresh must be a rate from 1 to 1000 Hz (got \(refresh))")
        }
        if let maxFPS, !(maxFPS.isFinite && maxFPS >= 1 && maxFPS <= 1000) {
            throw ValidationError("--max-fps must be from 1 to 1000 (got \(maxFPS))")
        }
    }

    var options: RunOptions {
        var options = RunOptions()
        options.backend = backend
        options.deckPath = deck
        options.size = PixelSize(parsing: size)!
        options.refreshRate = refresh
        options.realtime = realtime
        options.maximumFramesPerSecond = maxFPS
        options.fontPath = font
        options.tracePath = trace
        options.exitOnEndOfInput = exitOnEOF
        options.appearAtStart = appear
        options.restrictPaths = restrictPaths
        options.controlSocket = controlSocket
        return options
    }

    func run() throws {
        let status: Int32
        do throws(RuntimeError) {
            status = try Session(options: options).run()
        } catch {
            Log.error(error.message)
            throw ExitCode.failure
        }
        if status != 0 { throw ExitCode(status) }
    }
}
