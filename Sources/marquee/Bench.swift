import ArgumentParser
import MarqueeCore
import MarqueeRender
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
                                 (columns, coloured status, PNG logos, marquee "calling at")
              menu-1080p-images  a 3-column grid of 1,000 menu cards, each a 600x400 JPEG (200 distinct
                                 files) with a name and a price, scrolled from the first card to the
                                 last in 4 s (240 frames) twice, paced in real time: first while the
                                 pictures decode, then with them decoded
              transitions-1080p  3 inserts and 3 deletes in view, over 0.35 s (21 frames)
              update-1080p       1 card in view updated in place, over 0.35 s; the rest stands still
              cards-spi          480x320, 12 cards in 2 s, each frame converted to RGB565 as fbdev does
            Times are compared with a memcpy of one frame measured in the same run, since machines are shared and noisy. docs/performance.md has the last figures.
            """
    )

    @Option(
        help:
            "The scene: cards-1080p, cards-1080p-slow, cards-1080p-world, departures-1080p, menu-1080p-images, transitions-1080p, update-1080p or cards-spi."
    )
    var scene: BenchScene = .cards1080p

    @Option(parsing: .unconditional, help: "Frame size, WxH (default: the scene's, 1920x1080 or 480x320).")
    var size: String?

    @Option(
        parsing: .unconditional, help: "Frames to render over the scene's duration (default: one per 60 Hz vblank).")
    var frames: Int?

    @Option(
        parsing: .unconditional,
        help:
            "Cards in the deck (default 10000, 1000 for menu-1080p-images; the scroll goes to the middle card, or to the last for the menu). A comma-separated list (100,1000000) measures each size in turn in this one run, one line each."
    )
    var cards: String?

    var cardCounts: [Int] { (cards ?? "\(scene.defaultCards)").split(separator: ",").compactMap { Int($0) } }

    @Option(
        name: .customLong("scroll-to-card"), parsing: .unconditional,
        help:
            "The card the scroll ends at (default: the middle card). Give the same card with different --cards to compare deck sizes on the same scroll."
    )
    var scrollToCard: Int?

    @Flag(
        help:
            "Also time what a display pays per frame, for each --rotate and for RGB565, into ordinary memory, each path in a pass of the scene of its own: \"rotate 90 XRGB8888\" is the DRM backend's path (rendered in bands of 64 rows straight into the scan-out buffer, each band turned or converted on the way), \"shadow rotate 90 XRGB8888\" a whole frame rendered, then the rows each buffer lacks copied out (DRM's path before the bands). Scan-out alone and with the render of the same frame."
    )
    var scanout = false

    @Option(
        name: .customLong("band-rows"), parsing: .unconditional,
        help:
            "With --scanout, also time rendering in bands of this many rows (\"bands 32 rotate 0 XRGB8888\"), for each path; a comma-separated list (16,32,128) times each height."
    )
    var bandRows: String?

    @Option(
        name: .customLong("scanout-path"),
        help:
            "With --scanout, time only the path of this name (\"rotate 90 RGB565\", \"shadow rotate 0 XRGB8888\", \"bands 32 rotate 0 XRGB8888\"): one pass, for a cache simulator."
    )
    var scanoutPath: String?

    var bandHeights: [Int] { (bandRows ?? "").split(separator: ",").compactMap { Int($0) } }

    @Flag(
        help:
            "Instead of a scene, time decoding and scaling a 600x400 JPEG to 600x400, 300x200 and 150x100, and a store decoding 200 such files; report the image cache's memory."
    )
    var images = false

    @Option(
        name: .customLong("image-cache"), parsing: .unconditional,
        help: "With --images, departures-1080p and menu-1080p-images: the image cache's bound in MiB.")
    var imageCache: Int = ImageStoreLimits.defaultCacheMegabytes

    @Option(
        name: .customLong("image-max-pixels"), parsing: .unconditional,
        help: "With --images, departures-1080p and menu-1080p-images: the largest picture decoded, in pixels.")
    var imageMaxPixels: Int = ImageStoreLimits.defaultMaximumPixels

    @Flag(
        help:
            "Time edits instead of frames: a one-edit batch, and an apply of a state with 10 changes (decoding it, finding the difference, replaying it on the frame path), for each --cards (default 100000,1000000). Prints one JSON line per deck size."
    )
    var edits = false

    @Flag(
        help:
            "Time loading big decks instead of frames: for each --cards (default 200000,1000000), write a deck file shaped like cards-1080p's and report the wall and CPU time and peak RSS of check-deck and of run (software backend at 1920x1080, quitting at once) on it. Prints one JSON line per deck size."
    )
    var load = false

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
        if scanoutPath != nil, !scanout { throw ValidationError("--scanout-path needs --scanout") }
        if let bandRows {
            guard scanout else { throw ValidationError("--band-rows needs --scanout") }
            guard bandHeights.count == bandRows.split(separator: ",", omittingEmptySubsequences: false).count,
                bandHeights.allSatisfy({ $0 >= 1 })
            else { throw ValidationError("--band-rows must be row counts of at least 1 (got \"\(bandRows)\")") }
        }
        if !(1...65_536).contains(imageCache) { throw ValidationError("--image-cache must be from 1 to 65536 MiB") }
        if imageMaxPixels < 1 { throw ValidationError("--image-max-pixels must be at least 1") }
        if scene.edits, scrollToCard != nil {
            throw ValidationError("--scroll-to-card does not apply to \(scene.rawValue) (it does not scroll)")
        }
        let counts = cardCounts
        guard !counts.isEmpty, counts.count == (cards ?? "\(scene.defaultCards)").split(separator: ",").count,
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
        if images {
            try runImages()
            return
        }
        if load {
            for count in cards == nil ? [200_000, 1_000_000] : cardCounts {
                do throws(RuntimeError) {
                    print(try LoadBench.run(cards: count).jsonLine)
                } catch {
                    Log.error(error.message)
                    throw ExitCode.failure
                }
            }
            return
        }
        if edits {
            for count in cards == nil ? [100_000, 1_000_000] : cardCounts {
                do {
                    print(try EditBench.run(cards: count).jsonLine)
                } catch {
                    Log.error("bench --edits: \(error)")
                    throw ExitCode.failure
                }
            }
            return
        }
        for count in cardCounts {
            var result: BenchRunner.Result
            do throws(RuntimeError) {
                result = try BenchRunner(
                    scene: scene, size: size.flatMap(PixelSize.init(parsing:)), frames: frames, cards: count,
                    targetCard: scrollToCard, measuresScanout: scanout,
                    imageLimits: ImageStoreLimits(cacheBytes: imageCache << 20, maximumPixels: imageMaxPixels),
                    bandRows: bandHeights, onlyPath: scanoutPath
                ).run()
            } catch {
                Log.error(error.message)
                throw ExitCode.failure
            }
            result.listsFrameTimes = frameTimes
            print(json ? result.jsonLine : result.table)
        }
    }

    private func runImages() throws {
        let result: ImageBenchmark.Result
        do throws(ImageError) {
            result = try ImageBenchmark.run(
                limits: ImageStoreLimits(cacheBytes: imageCache << 20, maximumPixels: imageMaxPixels))
        } catch {
            Log.error(error.message)
            throw ExitCode.failure
        }
        let statistics = result.statistics
        if json {
            let timings = result.timings.map {
                "{\"size\":\"\($0.width)x\($0.height)\",\"p50_ms\":\(format($0.medianMilliseconds)),\"max_ms\":\(format($0.worstMilliseconds))}"
            }
            print(
                "{\"scene\":\"images\",\"jpeg_bytes\":\(result.fileBytes),\"decode_scale\":[\(timings.joined(separator: ","))],"
                    + "\"store_files\":\(result.storeFiles),\"store_s\":\(format(result.storeSeconds)),"
                    + "\"cache_bytes\":\(statistics.cachedBytes),\"cache_limit_bytes\":\(result.cacheLimitBytes),"
                    + "\"cached_images\":\(statistics.cachedImages),\"evictions\":\(statistics.evictions)}")
            return
        }
        print(
            "images: one 600x400 JPEG (\(result.fileBytes) bytes), decoded and scaled (cover, radius 12) on one thread")
        for timing in result.timings {
            print(
                "  to \(timing.width)x\(timing.height): p50 \(format(timing.medianMilliseconds)) ms, max \(format(timing.worstMilliseconds)) ms"
            )
        }
        print(
            "store: \(result.storeFiles) distinct files at 600x400 in \(format(result.storeSeconds)) s; cache \(format(Double(statistics.cachedBytes) / 1_048_576)) MiB of \(format(Double(result.cacheLimitBytes) / 1_048_576)) MiB, \(statistics.cachedImages) images, \(statistics.evictions) evicted"
        )
    }

    private func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(String(hundredths % 100).leftPad(2))"
    }
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
