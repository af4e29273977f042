import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeRender

/// Renders a bench scene (SPEC §10, `BenchScene`) frame by frame into memory and times it.
public struct BenchRunner {
    public struct Result {
        public var scene: BenchScene
        public var width: Int
        public var height: Int
        public var frames: Int
        public var cards: Int
        public var targetCard: Int?
        public var frameMilliseconds: [Double]
        public var frameCopyMilliseconds: Double
        /// With `--scanout`: per scan-out path ("rotate 90 XRGB8888"), the median milliseconds of
        /// the scan-out of each frame of the scroll, of render and scan-out of the same frame
        /// together, and of a frame identical to the last (right after a moving one).
        public var scanout:
            [(name: String, scrollingMilliseconds: Double, frameMilliseconds: Double, unchangedMilliseconds: Double)] =
                []
        /// With `--frame-times`: the JSON line also lists every timed frame's milliseconds, in
        /// order, so that a high p99 can be traced to the frames (and so the cards) that made it.
        public var listsFrameTimes = false
        /// For the scenes that show pictures: what the image store did and what was drawn.
        public var images: ImageFigures?

        public var mean: Double { frameMilliseconds.reduce(0, +) / Double(frameMilliseconds.count) }
        public var p50: Double { Self.percentile(0.5, of: frameMilliseconds) }
        public var p99: Double { Self.percentile(0.99, of: frameMilliseconds) }

        static func percentile(_ fraction: Double, of times: [Double]) -> Double {
            let sorted = times.sorted()
            let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(rank, 0), sorted.count - 1)]
        }

        public var jsonLine: String {
            var json = JSONWriter()
            json.beginObject()
            json.member("scene", scene.rawValue)
            json.member("width", width)
            json.member("height", height)
            json.member("frames", frames)
            if cards != scene.defaultCards || (scene == .cards1080p && targetCard != cards / 2) {
                json.member("cards", cards)
                if let targetCard { json.member("scroll_to_card", targetCard) }
            }
            json.member("mean_ms", Self.rounded(mean))
            json.member("p50_ms", Self.rounded(p50))
            json.member("p99_ms", Self.rounded(p99))
            json.member("frame_copy_ms", Self.rounded(frameCopyMilliseconds))
            json.member("p50_over_copy", Self.rounded(p50 / frameCopyMilliseconds))
            images?.write(into: &json, firstPass: frameMilliseconds)
            if listsFrameTimes {
                json.key("frame_ms")
                json.beginArray()
                for time in frameMilliseconds { json.value(Self.rounded(time)) }
                json.endArray()
            }
            if !scanout.isEmpty {
                json.key("scanout")
                json.beginArray()
                for path in scanout {
                    json.beginObject()
                    json.member("path", path.name)
                    json.member("p50_ms", Self.rounded(path.scrollingMilliseconds))
                    json.member("p50_over_copy", Self.rounded(path.scrollingMilliseconds / frameCopyMilliseconds))
                    json.member("frame_ms", Self.rounded(path.frameMilliseconds))
                    json.member("frame_over_copy", Self.rounded(path.frameMilliseconds / frameCopyMilliseconds))
                    json.member("unchanged_ms", Self.rounded(path.unchangedMilliseconds))
                    json.endObject()
                }
                json.endArray()
            }
            json.endObject()
            return json.string
        }

        public var table: String {
            """
            scene          \(scene.rawValue) (\(width)x\(height), \(cards) cards, \(targetCard.map { "scroll to card \($0)" } ?? (scene == .update1080p ? "1 card updated" : "3 inserts and 3 deletes")), \(frames) frames\(images?.secondPassMilliseconds.isEmpty == false ? " a pass" : ""))
            mean           \(Self.rounded(mean)) ms
            p50            \(Self.rounded(p50)) ms
            p99            \(Self.rounded(p99)) ms
            frame copy     \(Self.rounded(frameCopyMilliseconds)) ms (memcpy of one frame, same run)
            p50 / copy     \(Self.rounded(p50 / frameCopyMilliseconds))
            """
                + scanout.map { path in
                    "\nscan-out \(path.name): p50 \(Self.rounded(path.scrollingMilliseconds)) ms (\(Self.rounded(path.scrollingMilliseconds / frameCopyMilliseconds)) × copy) a frame; with the render \(Self.rounded(path.frameMilliseconds)) ms (\(Self.rounded(path.frameMilliseconds / frameCopyMilliseconds)) × copy); \(Self.rounded(path.unchangedMilliseconds)) ms for an unchanged frame"
                }.joined() + (images.map { "\n" + $0.table(firstPass: frameMilliseconds) } ?? "")
        }

        static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    }

    public static let defaultCards = 10_000

    public let scene: BenchScene
    public let size: PixelSize
    public let frames: Int
    public let cards: Int
    /// Where the scroll ends (SPEC §10 scrolls to the middle card, 5000 of 10,000); nil for the
    /// transition scene.
    public let targetCard: Int?

    /// Also time the scan-out stage of the DRM and fbdev backends for each frame.
    public let measuresScanout: Bool
    /// Seconds the frames cover (the scene's; tests shorten the scenes paced in real time).
    public let duration: Double
    /// The image store's bounds, for the scenes that show pictures (`--image-cache`).
    public let imageLimits: ImageStoreLimits
    /// With `measuresScanout`, band heights to time the band paths at too (`--band-rows`): the
    /// frame rendered in windows of that many rows straight into the scan-out buffers.
    public let bandRows: [Int]
    /// With `measuresScanout`, the one path to time (its name, "rotate 90 RGB565" or "bands 32
    /// rotate 0 XRGB8888"); nil times them all. For a cache simulator, which is slow.
    public let onlyPath: String?

    public init(
        scene: BenchScene = .cards1080p, size: PixelSize? = nil, frames: Int? = nil, cards: Int? = nil,
        targetCard: Int? = nil, measuresScanout: Bool = false, duration: Double? = nil,
        imageLimits: ImageStoreLimits = ImageStoreLimits(), bandRows: [Int] = [], onlyPath: String? = nil
    ) {
        self.bandRows = bandRows
        self.onlyPath = onlyPath
        self.scene = scene
        self.measuresScanout = measuresScanout
        self.size = size ?? scene.defaultSize
        self.frames = frames ?? scene.defaultFrames
        let cards = cards ?? scene.defaultCards
        self.cards = cards
        self.targetCard = scene.scrollTarget(cards: cards, override: targetCard)
        self.duration = duration ?? scene.duration
        self.imageLimits = imageLimits
    }

    /// The deck of SPEC §10: a list of `cards` white cards at alpha 0.92 with a bold title and
    /// two body lines.
    public static func deck(cards: Int) -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(all: 40)
        deck.layout.spacing = 24
        deck.layout.cardHeight = 160
        deck.style.cornerRadius = 16
        deck.style.cardColor = .white
        deck.style.cardAlpha = 0.92
        deck.style.titleFont = "DejaVu Sans:bold"
        deck.style.titleSize = 40
        deck.style.bodyFont = "DejaVu Sans"
        deck.style.bodySize = 24
        deck.style.padding = 24
        deck.style.textColor = Color(red: 0x1a, green: 0x1a, blue: 0x1f)
        // Background hue 0 → 0.18 over the scroll, saturation and brightness 1.
        deck.bindings.background = ColorKeyframes(
            space: .hsb,
            keyframes: Keyframes([.init(at: 0, value: SIMD4(0, 1, 1, 1)), .init(at: 1, value: SIMD4(0.18, 1, 1, 1))]))
        let body =
            "Departure board, platform 4: next service in 3 minutes\nCalling at Alderley, Brightwater, Carrow and Dunmore"
        var section = Section()
        section.cards.reserveCapacity(cards)
        for number in 0..<cards { section.cards.append(Card(id: "c\(number)", title: "Card \(number)", body: body)) }
        deck.sections = [section]
        return deck
    }

    /// Times the scene; with `measuresScanout`, then each scan-out path in a pass of its own.
    public func run() throws(RuntimeError) -> Result {
        var result = try pass(scanout: nil)
        guard measuresScanout else { return result }
        // One path a pass, as a display runs one: timing all six after each frame wrote about
        // 44 MB between two renders at 1080p, which pushed the card images out of the caches and
        // made the render of the same frame up to 1.7x slower than the render alone.
        let paths =
            Rotation.allCases.map { ScanoutTimer(frameSize: size, rotation: $0, format: .xrgb8888) } + [
                ScanoutTimer(frameSize: size, rotation: .none, format: .rgb565),
                ScanoutTimer(frameSize: size, rotation: .quarter, format: .rgb565),
            ]
        // The display's paths first (DRM draws in bands straight into its buffers), then the
        // shadow frame copied out, as DRM did before and fbdev still does (without its hash).
        let bands = bandPaths()
        // A pass not timed first: the first scan-out pass of a run measured about a quarter of a
        // frame copy slower than the same path later in the run (rotate 0, 180, 0, 180, 0 in turn:
        // 1.53, 1.01, 1.28, 1.00, 1.32 copies), whichever path it was.
        if !scene.pacedInRealTime { _ = try pass(scanout: nil, bands: bands[0]) }
        for path in bands.prefix(paths.count) where onlyPath == nil || path.name == onlyPath {
            result.scanout += try pass(scanout: nil, bands: path).scanout
        }
        for path in paths where onlyPath == nil || "shadow \(path.name)" == onlyPath {
            var shadow = try pass(scanout: path).scanout
            for index in shadow.indices { shadow[index].name = "shadow \(shadow[index].name)" }
            result.scanout += shadow
        }
        for path in bands.dropFirst(paths.count) where onlyPath == nil || path.name == onlyPath {
            result.scanout += try pass(scanout: nil, bands: path).scanout
        }
        if let onlyPath, result.scanout.isEmpty {
            throw RuntimeError(
                "bench: no scan-out path is named \"\(onlyPath)\" (\"bands N ...\" paths need --band-rows N)")
        }
        return result
    }

    /// One run of the scene from its start: the frames' render times, and with `path` that scan-out
    /// path's times for the same frames.
    private func pass(scanout path: ScanoutTimer?, bands: BenchBandPath? = nil) throws(RuntimeError) -> Result {
        let deck = scene.deck(cards: cards)
        let renderer: Renderer
        do {
            renderer = try Renderer()
            try renderer.prepare(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        let pictures = scene.showsImages ? try BenchPictures(for: scene, cards: cards, limits: imageLimits) : nil
        if let pictures {
            renderer.imageProvider = pictures.store
            renderer.imagePath = { pictures.path(for: $0) }
        }
        var state = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        let buffer = PixelBuffer(width: size.width, height: size.height)
        let duration = self.duration
        // The fbdev backend's scan-out stage, part of every frame of the SPI scene.
        let panel =
            scene.convertsToRGB565
            ? ScanoutTimer(frameSize: size, rotation: .none, format: .rgb565, hashesRows: true) : nil
        // Frame 0 draws the scene before anything moves and warms the caches: a few times (the
        // renderer makes at most two text layers a frame), each into a new buffer (into the same
        // one, an unchanged frame draws nothing); then the scroll or the edits start, and frames
        // 1...N (at k / N of the duration) are timed.
        var changedRows = RowBands(0..<size.height)
        func render(at target: Double, into whole: PixelBuffer? = nil) throws(RuntimeError) {
            _ = state.frame(at: FrameTime(timestamp: target - 1.0 / 60, targetTimestamp: target), into: &list)
            do {
                // A band pass draws its frames in bands into its scan-out buffers (the warm-up's
                // whole frames fill the same caches).
                if whole == nil, let bands {
                    changedRows = try bands.render(list, deck: state.deck, with: renderer)
                } else {
                    changedRows = try renderer.render(list, deck: state.deck, into: whole ?? buffer)
                }
            } catch {
                throw RuntimeError(error.message)
            }
            if let panel { _ = panel.present(buffer, changedRows: changedRows) }
        }
        /// Draws the frame at `time` anew until no picture in it is pending (the store's workers
        /// decode meanwhile); the first frame that draws a picture ready starts its fade-in.
        func drawUntilPicturesReady(at time: Double) throws(RuntimeError) {
            guard let pictures else { return }
            let deadline = MonotonicClock.now() + 60
            while true {
                let pending = renderer.pendingImagesDrawn
                try render(at: time, into: PixelBuffer(width: size.width, height: size.height))
                if renderer.pendingImagesDrawn == pending { return }
                guard MonotonicClock.now() < deadline else {
                    throw RuntimeError("bench: the image store did not decode the pictures in view within 60 s")
                }
                try pictures.waitForDecodes()
            }
        }
        for _ in 0..<5 { try render(at: 0, into: PixelBuffer(width: size.width, height: size.height)) }
        // The frame the timed ones start from. A scene not paced in real time waits here until the
        // pictures in view are decoded and starts after their fade-in, so its scroll draws them as
        // a board showing them for a while does (and its figures stay comparable with those of
        // the cards it had before it had pictures). A paced scene starts at once: its first pass
        // is a board showing its pictures for the first time.
        var start = 0.0
        if pictures != nil, !scene.pacedInRealTime {
            try drawUntilPicturesReady(at: 0)
            start = deck.style.transitionDuration
        }
        try render(at: start)
        if let targetCard {
            _ = state.scroll(to: .card(targetCard), duration: duration, curve: .easeInOut, tag: 0)
        } else {
            try editInView(&state)
        }
        try render(at: start)
        let scanouts = path.map { [$0] } ?? []
        var scanoutTimes = [[Double]](repeating: [], count: max(scanouts.count, bands == nil ? 0 : 1))
        var frameTimes = scanoutTimes
        var unchangedTimes = scanoutTimes
        for timer in scanouts { _ = timer.present(buffer) }
        /// Frames 1...N from `base` on the virtual clock, each timed alone; paced, frame k first
        /// waits until k / N of the duration has passed on the real clock since the call.
        func timedFrames(from base: Double, scanouts: [ScanoutTimer], bands: BenchBandPath? = nil) throws(RuntimeError)
            -> [Double]
        {
            var times: [Double] = []
            times.reserveCapacity(frames)
            let realStart = MonotonicClock.now()
            for k in 1...frames {
                let target = duration * Double(k) / Double(frames)
                if scene.pacedInRealTime {
                    let wait = realStart + target - MonotonicClock.now()
                    if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
                }
                let start = MonotonicClock.now()
                try render(at: base + target)
                let renderMilliseconds = (MonotonicClock.now() - start) * 1000
                times.append(renderMilliseconds)
                if let bands {
                    // Render and scan-out are one; the bands' copies timed among them.
                    scanoutTimes[0].append(bands.scanout.copyMilliseconds)
                    frameTimes[0].append(renderMilliseconds)
                    unchangedTimes[0].append(try bands.timeUnchanged(list, deck: state.deck, with: renderer))
                }
                for (index, timer) in scanouts.enumerated() {
                    let scanout = timer.present(buffer, changedRows: changedRows)
                    scanoutTimes[index].append(scanout)
                    frameTimes[index].append(renderMilliseconds + scanout)
                    // The same frame again (nothing moved): the buffer on screen holds it, so
                    // DRM copies and commits nothing (it used to send the other buffer this
                    // frame's rows and commit it), and the buffers stay as a scroll leaves them.
                    unchangedTimes[index].append(timer.present(buffer, changedRows: RowBands()))
                }
                try pictures?.takeChanges()
            }
            return times
        }
        let pendingBefore = renderer.pendingImagesDrawn
        let times = try timedFrames(from: start, scanouts: scanouts, bands: bands)
        var images = pictures.map { _ in
            ImageFigures(placeholdersDrawn: renderer.pendingImagesDrawn - pendingBefore)
        }
        // The menu's second pass: back to the first card at once, and the same scroll again with
        // every picture decoded (as far as the cache holds them all).
        if scene == .menu1080pImages, let targetCard {
            var time = start + duration + 1.0 / 60
            _ = state.scroll(to: .card(0), duration: 0, curve: .easeInOut, tag: 0)
            try drawUntilPicturesReady(at: time)
            try render(at: time)
            _ = state.scroll(to: .card(targetCard), duration: duration, curve: .easeInOut, tag: 0)
            time += 1.0 / 60
            try render(at: time)
            let pending = renderer.pendingImagesDrawn
            images?.secondPassMilliseconds = try timedFrames(from: time, scanouts: [])
            images?.secondPassPlaceholdersDrawn = renderer.pendingImagesDrawn - pending
        }
        if let pictures {
            images?.statistics = pictures.store.statistics
            images?.cacheLimitBytes = imageLimits.cacheBytes
            images?.files = pictures.fileCount
            images?.folder = pictures.folder
        }
        var result = Result(
            scene: scene, width: size.width, height: size.height, frames: frames, cards: cards,
            targetCard: targetCard, frameMilliseconds: times,
            frameCopyMilliseconds: Self.frameCopyMilliseconds(size))
        result.images = images
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        result.scanout = scanouts.indices.map { index in
            (
                scanouts[index].name, median(scanoutTimes[index]), median(frameTimes[index]),
                median(unchangedTimes[index])
            )
        }
        if let bands {
            result.scanout = [(bands.name, median(scanoutTimes[0]), median(frameTimes[0]), median(unchangedTimes[0]))]
        }
        return result
    }

    /// The edit scenes' changes, all starting on the next frame. transitions-1080p: deletes of the
    /// 2nd, 4th and 6th cards on screen and inserts of three new cards between the others.
    /// update-1080p: the 4th card's content replaced.
    func editInView(_ state: inout Scene) throws(RuntimeError) {
        let body = "Inserted while the board is shown\nThe cards below make room for it"
        do {
            if scene == .update1080p {
                var card = state.deck.sections[0].cards[3]
                card.title = "Delayed: now 08:57"
                card.body = "Platform 9 · Updated while the board is shown"
                try state.updateCard(at: 3, with: card)
                return
            }
            for index in [5, 3, 1] { try state.deleteCard(at: index) }
            for (offset, index) in [1, 3, 5].enumerated() {
                try state.insertCard(Card(id: "new\(offset)", title: "New card \(offset)", body: body), at: index)
            }
        } catch {
            throw RuntimeError("bench: the transition scene's edits failed: \(error)")
        }
    }

    /// The median time of a memcpy of one frame, the yardstick for frame times.
    static func frameCopyMilliseconds(_ size: PixelSize) -> Double {
        let source = PixelBuffer(width: size.width, height: size.height)
        let target = PixelBuffer(width: size.width, height: size.height)
        target.copy(from: source)
        var times: [Double] = []
        for _ in 0..<31 {
            let start = MonotonicClock.now()
            target.copy(from: source)
            times.append((MonotonicClock.now() - start) * 1000)
        }
        return times.sorted()[times.count / 2]
    }
}
