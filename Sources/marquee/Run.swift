import ArgumentParser
import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeRender
import MarqueeRuntime

extension BackendKind: ExpressibleByArgument {}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a deck and follow commands on standard input.",
        discussion: """
            Commands (one per line; docs/protocol.md has them all):
              scroll-to TARGET [duration=S] [curve=NAME]
                  TARGET: index, S:I, id:ID, section:S, start, end, P% or offset:PX
              scroll-by N | scroll-by PXpx [duration=S] [curve=NAME]
              wait SECONDS | wait idle
              snapshot PATH.png
              load DECK.json
              apply DECK.json | apply {DECK_JSON}
              insert PLACE CARD_JSON
              delete CARD
              move CARD PLACE
              update CARD CARD_JSON
              replace CARD CARD_JSON
                  CARD and PLACE: index, S:I or id:ID (S:I up to the section's count: its end)
              insert-section INDEX SECTION_JSON
              delete-section INDEX
              batch ... commit
              appear [stagger=S] [duration=S]
              play pages|cards N [dwell=S] [duration=S] [curve=NAME] [wrap=rewind|loop]
              play ticker [speed=PX]
              pause | resume | stop
              alert {"template":NAME,"fields":{...}}
              alert-clear
              display on|off
              quit

            Examples:
              marquee run --deck docs/examples/departures.json --appear
              marquee run --trace /tmp/t.jsonl < show.txt
              marquee run --realtime --deck board.json
              marquee run --backend drm --connector HDMI-A-1 --mode 1920x1080@60 --deck board.json
              marquee run --backend fbdev --device /dev/fb1 --rotate 90 --deck menu.json
              marquee run --backend window --deck board.json --watch

            Keys in the window (--backend window, a desktop preview; needs libsdl2-2.0-0):
              Up, Down              scroll by one card
              Page Up, Page Down    scroll by one screen
              Home, End             go to the start, the end
              s                     write marquee-snapshot-N.png in the current directory
              q, Escape             quit (as closing the window does)

            Exit status (docs/deployment.md, "Exit statuses"):
              0   done                    69  no such backend or device here
              1   other failures          71  a system call failed
              64  a bad flag              75  no display, or it is busy: try later
              77  no permission on the device
              78  a setting the device does not offer
            """
    )

    @Option(
        help:
            "auto, drm, fbdev, software or window. auto picks the best available and says which on stderr; it never picks window, a desktop preview for deck authors."
    )
    var backend: BackendKind = .auto

    @Option(help: "The deck file (JSON, docs/deck-format.md). Without it, a built-in demo deck is shown.")
    var deck: String?

    @Option(
        help:
            "The device: a DRM card (/dev/dri/card1) or an fbdev device (/dev/fb1). Default: the first card with a display connected, or /dev/fb0."
    )
    var device: String?

    @Option(
        help:
            "The DRM connector to drive, as the kernel names it (HDMI-A-1, DSI-1). Default: the first connected one. Give it again for more outputs of the same card, each showing the deck at its own size."
    )
    var connector: [String] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help:
            "The DRM display mode, WxH or WxH@HZ (1920x1080@60). Default: the display's preferred mode. With several --connector: once for all, or once per --connector in their order."
    )
    var mode: [String] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help:
            "Turn the picture clockwise by 0, 90, 180 or 270 degrees, for panels mounted on their side. Default on DRM: what the panel's 'panel orientation' property says (DSI panels), else 0. With several --connector: once for all, or once per --connector in their order."
    )
    var rotate: [Int] = []

    @Flag(
        name: .customLong("no-atomic"),
        help:
            "Use legacy DRM modesetting (drmModeSetCrtc and drmModePageFlip) even where atomic is offered; also MARQUEE_DRM_NO_ATOMIC=1."
    )
    var noAtomic = false

    @Flag(
        name: .customLong("wait-for-display"),
        help:
            "DRM: when no display is connected at start (a TV still off at boot), wait for one instead of failing. Displays that are unplugged and plugged back while Marquee runs are always followed."
    )
    var waitForDisplay = false

    @Flag(
        help:
            "DRM: open the device through libseat (seatd or logind), so Marquee runs as an ordinary user without the video group; a switch to another virtual terminal pauses the display and the switch back shows it again. Needs libseat1 and a running seatd (or a logind session)."
    )
    var seat = false

    @Option(
        parsing: .unconditional,
        help: "Frame size for the software backend, WxH (default 1280x720; the panel's size when rotated).")
    var size: String?

    @Option(parsing: .unconditional, help: "Refresh rate of the software backend's display link, in Hz (default 60).")
    var refresh: Double?

    @Flag(help: "Pace the software backend by the wall clock instead of its virtual clock.")
    var realtime = false

    @Option(
        name: .customLong("max-fps"), parsing: .unconditional,
        help:
            "Never render more often than this many frames per second (default: the display's refresh rate; lower it for slow SPI panels)."
    )
    var maxFPS: Double?

    @Option(help: "A font file used for all text instead of the deck's fontconfig fonts.")
    var font: String?

    @Option(
        help:
            "Write one JSON line per presented frame to this file (docs/protocol.md, \"Frame trace\"). Refused if it is the deck, the font, an MQTT file, a picture the deck shows or the file standard input is read from. With several --connector each further output is traced beside it (t.jsonl: t.HDMI-A-2.jsonl), held to the same; no two traces may be one file."
    )
    var trace: String?

    @Option(
        name: .customLong("control-socket"),
        help:
            "Also take commands from clients of a Unix socket at this path (mode 0660, removed at exit; see marquee send). The software backend then keeps running after standard input ends."
    )
    var controlSocket: String?

    @Option(
        name: .customLong("max-clients"), parsing: .unconditional,
        help:
            "Serve at most this many control-socket clients at once (default \(RunOptions.defaultMaxClients)); more are answered with an error and closed."
    )
    var maxClients: Int = RunOptions.defaultMaxClients

    @Option(
        name: .customLong("restrict-paths"),
        help:
            "Let snapshot, load and the deck's images touch only files under this directory (after resolving .. and symlinks)."
    )
    var restrictPaths: String?

    @Flag(
        help:
            "Reload the --deck file whenever it is saved, keeping the scroll; a broken file leaves the last good deck and says why on stderr (and in the window's title). Keeps the software backend running after standard input ends."
    )
    var watch = false

    @Option(
        name: .customLong("image-cache"), parsing: .unconditional,
        help:
            "Memory for images scaled and ready to draw, in MiB; the least recently shown are dropped first and decoded again when needed."
    )
    var imageCache: Int = ImageStoreLimits.defaultCacheMegabytes

    @Option(
        name: .customLong("image-max-pixels"), parsing: .unconditional,
        help:
            "Refuse image files whose header declares more pixels than this, before decoding them; they draw their placeholder and emit image-failed."
    )
    var imageMaxPixels: Int = ImageStoreLimits.defaultMaximumPixels

    @Flag(help: "Play the appear sequence (cards appear one after another) when the deck is first shown.")
    var appear = false

    @Flag(
        name: .customLong("exit-on-eof"),
        help:
            "Exit when standard input ends. The software backend does so anyway (after finishing its commands and animations) unless --control-socket is given; DRM and fbdev keep showing without this flag."
    )
    var exitOnEOF = false

    @OptionGroup(title: "MQTT (a fleet through a broker; docs/deployment.md)") var mqtt: MQTTFlags

    func validate() throws {
        _ = try mqtt.settings()
        if let size, PixelSize(parsing: size) == nil {
            throw ValidationError(
                "--size must be WxH with each side from 1 to 16384, for example 1280x720 (got \"\(size)\")")
        }
        if let refresh, !(refresh.isFinite && refresh >= 1 && refresh <= 1000) {
            throw ValidationError("--refresh must be a rate from 1 to 1000 Hz (got \(refresh))")
        }
        if backend == .drm || backend == .fbdev {
            let softwareOnly = [("--size", size != nil), ("--refresh", refresh != nil), ("--realtime", realtime)]
            if let (flag, _) = softwareOnly.first(where: { $0.1 }) {
                throw ValidationError(
                    "\(flag) is for the software backend; --backend \(backend.rawValue) uses the display's own size and refresh\(backend == .drm ? " (choose them with --mode)" : "")"
                )
            }
        }
        if let rotate = rotate.first(where: { Rotation(rawValue: $0) == nil }) {
            throw ValidationError("--rotate must be 0, 90, 180 or 270 (got \(rotate))")
        }
        if let mode = mode.first(where: { ModeRequest(parsing: $0) == nil }) {
            throw ValidationError(
                "--mode must be WxH or WxH@HZ, for example 1920x1080 or 1920x1080@60 (got \"\(mode)\")")
        }
        try validateOutputs()
        if backend == .software || backend == .fbdev {
            let drmOnly = [
                ("--connector", !connector.isEmpty), ("--mode", !mode.isEmpty), ("--no-atomic", noAtomic),
                ("--wait-for-display", waitForDisplay), ("--seat", seat),
            ]
            if let (flag, _) = drmOnly.first(where: { $0.1 }) {
                throw ValidationError(
                    "\(flag) is for the DRM backend; it does not apply to --backend \(backend.rawValue)")
            }
        }
        if backend == .software, device != nil {
            throw ValidationError(
                "--device names a display device; the software backend draws into memory (use --size)")
        }
        if backend == .window {
            let panelOnly = [
                ("--device", device != nil), ("--connector", !connector.isEmpty), ("--mode", !mode.isEmpty),
                ("--no-atomic", noAtomic), ("--rotate", rotate.contains { $0 != 0 }), ("--refresh", refresh != nil),
                ("--wait-for-display", waitForDisplay), ("--seat", seat),
                ("--realtime", realtime),
            ]
            if let (flag, _) = panelOnly.first(where: { $0.1 }) {
                throw ValidationError(
                    "\(flag) does not apply to --backend window, which follows the desktop's refresh (choose the frame size with --size)"
                )
            }
        }
        if watch, deck == nil {
            throw ValidationError("--watch reloads the --deck file; give one with --deck FILE")
        }
        // The trace is truncated at start, and so is the file beside it of each further output
        // (`t.HDMI-A-2.jsonl`): none may be a file the run reads, nor two of them the same file.
        if let trace,
            let conflict = OutputPaths.traceConflict(
                trace: trace, furtherOutputs: Array(connector.dropFirst()),
                inputs: [
                    ("the --deck file", deck), ("the --font file", font), ("the --mqtt-ca file", mqtt.caFile),
                    ("the --mqtt-password-file", mqtt.passwordFile),
                ])
        {
            throw ValidationError(conflict)
        }
        if !(1...4096).contains(maxClients) {
            throw ValidationError("--max-clients must be from 1 to 4096 (got \(maxClients))")
        }
        if !(1...65_536).contains(imageCache) {
            throw ValidationError("--image-cache must be from 1 to 65536 MiB (got \(imageCache))")
        }
        if !(1...1_000_000_000).contains(imageMaxPixels) {
            throw ValidationError("--image-max-pixels must be from 1 to 1000000000 (got \(imageMaxPixels))")
        }
        if let maxFPS, !(maxFPS.isFinite && maxFPS >= 1 && maxFPS <= 1000) {
            throw ValidationError("--max-fps must be from 1 to 1000 (got \(maxFPS))")
        }
    }

    var options: RunOptions {
        var options = RunOptions()
        options.backend = backend
        options.deckPath = deck
        options.size = size.flatMap(PixelSize.init(parsing:)) ?? options.size
        options.refreshRate = refresh ?? options.refreshRate
        options.realtime = realtime
        options.maximumFramesPerSecond = maxFPS
        options.devicePath = device
        options.connector = connector.first
        options.mode = modeOfOutput(0)
        options.rotation = rotationOfOutput(0) ?? .none
        options.rotationIsExplicit = rotationOfOutput(0) != nil
        options.furtherOutputs = connector.indices.dropFirst().map { index in
            DRMOutputRequest(connector: connector[index], mode: modeOfOutput(index), rotation: rotationOfOutput(index))
        }
        options.waitForDisplay = waitForDisplay
        options.seat = seat
        let environment = ProcessInfoEnvironment.self
        options.forceLegacyModesetting = noAtomic || environment.isSet("MARQUEE_DRM_NO_ATOMIC")
        options.writebackSnapshots = environment.isSet("MARQUEE_SNAPSHOT_WRITEBACK")
        options.fontPath = font
        options.tracePath = trace
        options.exitOnEndOfInput = exitOnEOF
        options.appearAtStart = appear
        options.watchDeck = watch
        options.restrictPaths = restrictPaths
        options.imageCacheMegabytes = imageCache
        options.imageMaxPixels = imageMaxPixels
        options.controlSocket = controlSocket
        options.maxClients = maxClients
        options.mqtt = try? mqtt.settings()  // validated already
        return options
    }

    /// `--mode` and `--rotate` with several `--connector`: given once, they apply to every output;
    /// given once per `--connector`, the n-th goes with the n-th connector. Other counts are
    /// refused rather than guessed at.
    private func validateOutputs() throws {
        if connector.count < 2 {
            if let (flag, _) = [("--mode", mode.count), ("--rotate", rotate.count)].first(where: { $0.1 > 1 }) {
                throw ValidationError(
                    "\(flag) is given more than once, but there is \(connector.isEmpty ? "no --connector" : "one --connector"); with several --connector, give it once for all outputs or once per --connector"
                )
            }
            return
        }
        if backend != .drm && backend != .auto {
            throw ValidationError("several --connector are for the DRM backend (got --backend \(backend.rawValue))")
        }
        var seen = Set<String>()
        if let twice = connector.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw ValidationError("--connector \(twice) is given twice")
        }
        for (flag, count) in [("--mode", mode.count), ("--rotate", rotate.count)]
        where count > 1 && count != connector.count {
            throw ValidationError(
                "\(flag) is given \(count) times for \(connector.count) --connector; give it once for all outputs or once per --connector, in their order"
            )
        }
    }

    /// The `--mode` of output `index` (in `--connector` order).
    private func modeOfOutput(_ index: Int) -> ModeRequest? {
        let value = mode.count > 1 ? mode[index] : mode.first
        return value.flatMap(ModeRequest.init(parsing:))
    }

    /// The `--rotate` of output `index`; nil: the panel's own orientation.
    private func rotationOfOutput(_ index: Int) -> Rotation? {
        let value = rotate.count > 1 ? rotate[index] : rotate.first
        return value.flatMap(Rotation.init(rawValue:))
    }

    func run() throws {
        let status: Int32
        do throws(RuntimeError) {
            status = try Session(options: options).run()
        } catch {
            Log.error(error.message)
            throw ExitCode(ExitStatus.of(error))
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// Switches read from the environment (`NAME=1`, `yes` or `true`).
enum ProcessInfoEnvironment {
    static func isSet(_ name: String) -> Bool {
        guard let value = getenv(name) else { return false }
        return ["1", "yes", "true"].contains(String(cString: value).lowercased())
    }
}
