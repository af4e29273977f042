import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol
import MarqueeRender

/// One run of Marquee: a deck on a display, driven by commands, timed by the display link.
///
/// One thread runs the loop: one `poll()` over the command sources (stdin and, with
/// `--control-socket`, the listening socket and its clients), their outputs while replies wait,
/// the signal descriptor, the deck loader's wake-up pipe and the display link's descriptor. Only
/// deck files are read on another thread (`DeckLoader`, one deck at a time for all sources). Each source's commands are queued in arrival order and applied one at a time;
/// `wait` and `snapshot` hold that source's queue until their condition is met, so its replies
/// stay in order and scripted runs on the virtual clock are deterministic.
public final class Session {
    let options: RunOptions
    let backend: DisplayBackend
    let link: DisplayLink
    /// The outputs after the first (`--connector` given more than once), each showing the deck
    /// at its own size, timed by its own vblanks (Session+Outputs.swift).
    let furtherOutputs: [FurtherOutput]
    let renderer: Renderer
    var scene: Scene
    var displayList = DisplayList()
    private let trace: TraceWriter?
    let signals: SignalDescriptor
    private let controlSocket: ControlSocket?
    /// `--mqtt`: the broker link, whose messages are one more command source.
    private let mqtt: MQTTLink?
    let paths: PathPolicy
    var json = JSONWriter()

    let standardInput: CommandSource
    var sources: [CommandSource]
    var quitting = false
    private var frameNumber = 0
    private var timeOrigin: Double?
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var decoded: [DecodedLine] = []
    private var descriptors: [pollfd] = []
    /// What each entry of `descriptors` after the signal descriptor stands for.
    private var watched: [Watched] = []
    let loader: DeckLoader
    /// The deck's pictures, decoded on the store's own threads (`--image-cache`,
    /// `--image-max-pixels`); the renderer looks them up, the loop polls its wake-up descriptor.
    let images: ImageStore
    /// SIGHUP and `--watch` reloads being read (with what asked for them, for the log), applied
    /// in the order they were asked for.
    var pendingReloads: [(load: DeckLoad, cause: String)] = []
    /// `--watch`: inotify on the deck file's directory.
    private let watcher: DeckWatcher?
    /// While `accept` fails for want of descriptors (EMFILE, ENFILE), the listener is not polled
    /// until a client leaves or this monotonic time passes, so the loop never spins on it.
    var listenerPausedUntil: Double?
    /// Set once standard output went over its cap (logged once).
    private var standardOutputOverCap = false
    /// Scene tags are session-wide; each belongs to one source's command.
    var tagOwners: [Int: (source: CommandSource, seq: Int)] = [:]
    var nextTag = 1
    /// Tags made since the last frame: the next frame is the first to show their change.
    private var tagsAwaitingFrame: [Int] = []
    /// When each tagged change was first shown: the display-link target time of its first
    /// frame, reported as `presented` in the event that ends it.
    private var presentedAt: [Int: Double] = [:]
    /// Tags whose end is reported as an event, and that event's name.
    var tagEvents: [Int: String] = [:]
    private var finishedTags: [Int] = []
    /// The `play` command whose playback runs (told with `playback-stopped` when it ends); nil
    /// for none, or for a deck's own playback, which `playbackFromDeck` marks.
    var playbackOwner: (source: CommandSource, seq: Int)?
    var playbackFromDeck = false
    /// Why the display is off, after `display off` or a schedule's off rule (only a command or the
    /// schedule brings it back), nil while it is on: no frames are rendered meanwhile, and `wait
    /// idle` and `snapshot` that would wait for it are answered at once with this reason instead.
    var displayOffReason: String?
    var displayIsOn: Bool { displayOffReason == nil }
    /// The first output's connector while it is disconnected (hotplug), and whether the seat is
    /// on another virtual terminal: the display is gone for a while and comes back by itself.
    var disconnectedConnector: String?
    var seatIsAway = false
    /// The deck's schedule: the part shown, the next change's timer (Session+Schedule.swift).
    var scheduleState = ScheduleRuntime()
    /// Times the schedule's timer fired (a test counts them: none between rule changes).
    public internal(set) var scheduleWakeUps = 0
    /// The file of the deck shown (`--deck` or the last `load`), which a snapshot may not replace.
    var shownDeckPath: String?
    /// The deck file the pictures shown are resolved from (`--deck`, the last `load` or `apply`
    /// of a file), which a snapshot may not replace either.
    var imageDeckPath: String?
    /// The memory all the sources' open batches hold together (each batch's cap is shared too).
    let batchBudget = BatchBudget()
    /// The layout and width last checked for leaving cards no width (logged once for each).
    var layoutWidthChecked: (layout: LayoutConfiguration, width: Int)?

    /// Sets everything up; throws with a message for the user when something is missing.
    public init(options: RunOptions) throws(RuntimeError) {
        self.options = options
        // Watching starts before the first read, so a save made while the display opens is seen.
        watcher =
            options.watchDeck
            ? try options.deckPath.map { path throws(RuntimeError) in try DeckWatcher(path: path) } : nil
        let deck: Deck
        if let path = options.deckPath { deck = try DeckFile.load(path) } else { deck = DemoDeck.make() }
        shownDeckPath = options.deckPath
        imageDeckPath = options.deckPath
        let traceInputs = Self.traceInputs(options, deck: deck)
        try Self.checkTraceIsNoInput(
            options, inputs: traceInputs, furtherOutputs: options.furtherOutputs.compactMap(\.connector))
        // Fonts first: a missing font must not cost the display a modeset and a restore.
        try Self.checkFontFile(options.fontPath)
        try Self.checkElementFonts(deck, fontPath: options.fontPath)
        do {
            renderer = try Renderer(fontOverride: options.fontPath)
            try renderer.prepare(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        let backends = try BackendChoice.openOutputs(options)
        backend = backends[0]
        link = backend.displayLink
        scene = Scene(deck: deck, viewport: backend.size)
        // Clock elements show the wall clock; the link's clock (virtual or monotonic) only
        // times frames.
        let linkNow = link.now
        let wallStart = link.isVirtual ? options.virtualWallClockStart : nil
        scene.clockOffset = (wallStart ?? Self.wallClockNow()) - linkNow
        standardInput = CommandSource(
            name: "stdin", input: options.inputDescriptor,
            output: OutputQueue.standardOutput(options.outputDescriptor, capacity: Self.standardOutputCapacity),
            isClient: false)
        sources = [standardInput]
        // The further outputs' traces are named after the connectors as the kernel names them
        // (`--connector hdmi-a-2` drives HDMI-A-2): checked again, before any trace is emptied.
        try Self.checkTraceIsNoInput(
            options, inputs: traceInputs, furtherOutputs: backends.dropFirst().map(FurtherOutput.name(of:)))
        trace = try options.tracePath.map { path throws(RuntimeError) in try TraceWriter(path: path) }
        paths =
            try options.restrictPaths.map { directory throws(RuntimeError) in try PathPolicy(directory: directory) }
            ?? .unrestricted
        controlSocket = try options.controlSocket.map { path throws(RuntimeError) in try ControlSocket(path: path) }
        signals = try SignalDescriptor()
        loader = try DeckLoader()
        // After the signals are blocked: the store's threads inherit the mask, so SIGTERM and
        // SIGHUP still reach only the signalfd (a thread started before would take them and die).
        // As `imageResolver` does (self is not whole yet): the --deck folder may hold its images.
        var imagePolicy = paths
        if let deckPath = options.deckPath {
            imagePolicy = imagePolicy.allowingReads(in: ImagePaths.folder(of: deckPath))
        }
        do {
            var limits = options.imageLimits
            limits.readableFolders = imagePolicy.readableFolders
            images = try ImageStore(limits: limits)
        } catch {
            throw RuntimeError(error.message)
        }
        renderer.imageProvider = images
        // On the virtual clock a picture first shows in the frame after the first that asks for
        // it, whatever the workers' speed (with `waitsForImages`: the same frames every run).
        images.holdsFirstSight = link.isVirtual
        renderer.imagePath = Self.imagePaths(deckPath: options.deckPath, policy: imagePolicy, store: images)
        furtherOutputs = try Self.makeFurtherOutputs(
            Array(backends.dropFirst()), deck: deck, first: renderer, clockOffset: scene.clockOffset, options: options)
        mqtt = try options.mqtt.map { settings throws(RuntimeError) in try MQTTLink(settings) }
        if let mqtt {
            sources.append(
                CommandSource(
                    name: "mqtt", input: mqtt.commandDescriptor,
                    output: OutputQueue(publisher: { [unowned mqtt] line, event in mqtt.publish(line, event: event) }),
                    isClient: false))
        }
        // A reader that goes away must not kill a kiosk: writes then fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs until `quit`, a signal, or the end of input (see SPEC §7 and docs/protocol.md).
    /// Returns the exit status.
    public func run() throws(RuntimeError) -> Int32 {
        var signalled = false
        defer {
            // Failures still waiting (found in the last frame, or by a worker since the last
            // poll) are reported before the last replies are flushed.
            if images.hasNewFailures { takeImageChanges(requestingFrame: false) }
            for source in sources { source.output.flush() }
            trace?.flush()
            for output in furtherOutputs {
                output.trace?.flush()
                output.backend.restore()
            }
            backend.restore()
            // A script's last replies must reach its reader, but a signal still ends Marquee.
            if !signalled { drainStandardOutput() }
            mqtt?.finish()
        }
        startSchedule()
        if options.appearAtStart {
            changeScenes { $0.appear(stagger: 0.08) }
        }
        followDeckPlayback(scene.deck.playback, previous: nil, restart: true)
        while !quitting {
            scheduleTimerFired()
            applyFinishedReloads()
            try applyQueuedCommands()
            if quitting { break }
            dropFinishedClients()
            // The next deck waiting is read once the one before is shown (or its client gone).
            loader.startNext { (scene.deck, scene.deckVersion) }
            // On the virtual clock time stands still while a picture the last frame showed
            // unfinished is decoded, so the frame it first shows in, and its fade-in, are the same
            // however fast the machine decodes.
            let holdsForImages = waitsForImages
            if displayIsOn && scene.needsFrame && !link.isFramePending && !holdsForImages { link.requestFrame() }
            // A marquee, clock or image that changes by itself gets a frame when it changes, and
            // none before (a clock showing minutes costs one frame a minute).
            let redraw = (endsWithInput && standardInput.isFinished) || !displayIsOn ? nil : nextChange
            // (Within a nanosecond: a redraw "at the last frame's target" is one period after
            // `now` in exact arithmetic, not always in floating point.)
            if let redraw, !link.isFramePending, !holdsForImages, redraw - link.refreshPeriod <= link.now + 1e-9 {
                link.requestFrame()
            }
            if displayIsOn { for output in furtherOutputs { output.requestFrameIfNeeded() } }
            if link.isVirtual, !link.isFramePending, !holdsForImages, let deadline = earliestWaitDeadline() {
                link.advanceIdle(to: min(deadline, max(link.now, (redraw ?? .infinity) - link.refreshPeriod)))
                continue
            }
            // A ticker never ends, so it holds no one up (as `wait idle` does not wait for it); nor
            // does a display that is gone (unplugged, another VT) and may never come back.
            if endsWithInput && standardInput.isFinished
                && (!link.isFramePending || (scene.isTickerRunning && !scene.needsFrameBesidesTicker)
                    || displayGone != nil)
            {
                break
            }
            signalled = try waitForEvents()
            handleWindowInput()
            if quitting { break }
            if let time = try dispatchFrame() { try renderFrame(time) }
            for output in furtherOutputs { try output.dispatchAndRender() }
            // A box refused at look-up failed in the frame just drawn: reported now, before a
            // `wait idle` is answered or the script ends, not when the store's pipe is next polled
            // (a run on the virtual clock may never poll again).
            if images.hasNewFailures { takeImageChanges() }
        }
        return 0
    }

    /// On the virtual clock: the last frame showed a picture that is still being decoded, so no
    /// frame is drawn (and no time passes) until it is ready or has failed. A decode always ends:
    /// only regular files are read, and a file that cannot be decoded fails (ImageStore).
    var waitsForImages: Bool {
        link.isVirtual && displayIsOn && renderer.pendingImages.contains { images.isPending($0) }
    }

    /// The software backend ends with its input, unless a control socket, a broker or a watched
    /// deck file keeps it serving; any backend does with `--exit-on-eof`.
    var endsWithInput: Bool {
        (backend.name == "software" && controlSocket == nil && mqtt == nil && watcher == nil)
            || options.exitOnEndOfInput
    }

    /// Why the display shows nothing for a hardware reason (it comes back by itself), or nil.
    var displayGone: String? {
        if seatIsAway { return "the virtual terminal is switched away" }
        return disconnectedConnector.map { "\($0) is disconnected" }
    }

    /// The link time at which something changes by itself (a marquee, a clock, an image, a card
    /// going stale) and needs a frame, though nothing else moves.
    private var nextChange: Double? { Self.nextChange(of: scene, drawnBy: renderer) }

    /// The same for any output's scene and renderer.
    static func nextChange(of scene: Scene, drawnBy renderer: Renderer) -> Double? {
        // A page's dwell ending is one more such moment: its timer is the only wake-up of a dwell.
        // Folded by hand, not through an array: this runs on every pass of the loop.
        var earliest = renderer.nextRedraw
        if let stale = scene.nextStaleChange { earliest = min(earliest ?? stale, stale) }
        if let dwellEnd = scene.nextPlaybackChange { earliest = min(earliest ?? dwellEnd, dwellEnd) }
        return earliest
    }

    /// `timeout` (milliseconds, -1: none) shortened to a wake-up `seconds` from now, capped at a
    /// minute.
    static func pollTimeout(_ timeout: Int32, wakingIn seconds: Double) -> Int32 {
        let remaining = Int32(max(0, min((seconds * 1000).rounded(.up), 60_000)))
        return timeout < 0 ? remaining : min(timeout, remaining)
    }

    /// The earliest `wait` deadline, or the schedule's timer if it comes first: on the virtual
    /// clock, time passes only while a source waits.
    private func earliestWaitDeadline() -> Double? {
        let wait = sources.compactMap { source -> Double? in
            if case .seconds(_, let deadline) = source.hold { return deadline }
            return nil
        }.min()
        guard let wait else { return nil }
        return min(wait, scheduleState.deadline ?? wait)
    }

    // MARK: Events

    /// What a polled descriptor stands for.
    private enum Watched {
        case listener, loader, link, watcher, images, hotplug, seat
        /// A further output's hotplug monitor.
        case hotplugOf(FurtherOutput)
        /// A source's input (and, for a client, its output on the same socket).
        case source(CommandSource)
        /// Standard output, when it is not the input's descriptor.
        case output(CommandSource)
    }

    /// The longest the schedule's timer sleeps in one `poll()` (ms): a week, within poll's Int32.
    static let longestScheduleWait = 7 * 86_400_000.0

    /// Waits in `poll()` and handles what it reports; returns true when a signal ends the run.
    private func waitForEvents() throws(RuntimeError) -> Bool {
        var timeout = link.pollTimeoutMilliseconds()
        if !link.isVirtual, !link.isFramePending, displayIsOn, let redraw = nextChange {
            timeout = Self.pollTimeout(timeout, wakingIn: redraw - link.refreshPeriod - link.now)
        }
        if !link.isVirtual, let deadline = earliestWaitDeadline() {
            timeout = Self.pollTimeout(timeout, wakingIn: deadline - link.now)
        }
        // The schedule's one timer: not capped at a minute like the others, so a board idle
        // until its next rule change (hours away) does not wake once a minute meanwhile.
        if !link.isVirtual, let deadline = scheduleState.deadline {
            let remaining = Int32(max(0, min(((deadline - link.now) * 1000).rounded(.up), Self.longestScheduleWait)))
            timeout = timeout < 0 ? remaining : min(timeout, remaining)
        }
        if displayIsOn {
            for output in furtherOutputs {
                let own = output.pollTimeoutMilliseconds()
                if own >= 0 { timeout = timeout < 0 ? own : min(timeout, own) }
            }
        }
        if let pausedUntil = listenerPausedUntil {
            let remaining = Int32(max(0, ((pausedUntil - Self.monotonicNow()) * 1000).rounded(.up)))
            timeout = timeout < 0 ? remaining : min(timeout, remaining)
            if remaining == 0 { listenerPausedUntil = nil }
        }
        if timeout != 0 {
            for source in sources { source.output.flush() }
            trace?.flush()
            for output in furtherOutputs { output.trace?.flush() }
        }
        noteStandardOutputOverCap()
        // Kept across waits (capacity and all): a wait per frame should not allocate.
        descriptors.removeAll(keepingCapacity: true)
        watched.removeAll(keepingCapacity: true)
        func watch(_ fd: Int32, _ events: Int32, _ what: Watched) {
            descriptors.append(pollfd(fd: fd, events: Int16(events), revents: 0))
            watched.append(what)
        }
        descriptors.append(pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0))
        if let controlSocket, listenerPausedUntil == nil { watch(controlSocket.fd, POLLIN, .listener) }
        watch(loader.fd, POLLIN, .loader)
        if let watcher { watch(watcher.fd, POLLIN, .watcher) }
        watch(images.wakeUpDescriptor, POLLIN, .images)
        if let fd = hotplugDescriptor { watch(fd, POLLIN, .hotplug) }
        for output in furtherOutputs {
            if let fd = (output.backend as? DisplayHotplug)?.hotplugDescriptor { watch(fd, POLLIN, .hotplugOf(output)) }
        }
        if let fd = seatDescriptor { watch(fd, POLLIN, .seat) }
        let allPendingBytes = sources.reduce(0) { $0 + $1.pendingBytes }
        for source in sources {
            // Stop reading a source while a long backlog waits behind its `wait` (or standard
            // output's reader lags far behind): its writer is then pushed back by the pipe or
            // socket instead of Marquee buffering without bound.
            var reads = source.wantsInput(allPendingBytes: allPendingBytes)
            if !source.isClient && source.output.pendingBytes > Self.standardInputPauseBytes { reads = false }
            let writes = source.output.wantsWritable
            if source.isClient {
                // Watched even with no events asked for: POLLHUP (the peer closed) and POLLERR
                // always come, so a client gone while it waits is seen at once (a half-closed
                // one, which still wants its replies, gives neither).
                let events = (reads ? POLLIN : 0) | (writes ? POLLOUT : 0)
                if events != 0 || !source.peerHungUp { watch(source.inputDescriptor, events, .source(source)) }
            } else {
                if reads { watch(source.inputDescriptor, POLLIN, .source(source)) }
                if writes { watch(source.output.fd, POLLOUT, .output(source)) }
            }
        }
        // The link's descriptor is there while it expects an event (a flip may complete after the
        // last frame was requested; its event must be read then, not when the next frame is).
        if let fd = link.pollDescriptor { watch(fd, POLLIN, .link) }
        // The outputs share the card's descriptor; each link reads it and takes its own events.
        for output in furtherOutputs { if let fd = output.link.pollDescriptor { watch(fd, POLLIN, .link) } }
        if SystemCall.poll(&descriptors, timeoutMilliseconds: timeout) < 0 {
            throw RuntimeError(Errno.current, "poll failed")
        }
        let signalled = descriptors[0].revents != 0 ? handleSignals() : false
        var listenerReadable = false
        for (index, what) in watched.enumerated() where descriptors[index + 1].revents != 0 {
            let revents = Int32(descriptors[index + 1].revents)
            switch what {
            case .listener: listenerReadable = true
            case .loader: loader.drain()
            case .watcher: if watcher?.takeChanges() == true { deckFileChanged() }
            case .images: takeImageChanges()
            case .hotplug: takeDisplayChanges()
            case .hotplugOf(let output): takeDisplayChanges(of: output)
            case .seat: try takeSeatChanges()
            case .link: break  // dispatchFrame reads it
            case .output(let source): source.output.flush()
            case .source(let source):
                if source.isClient && revents & (POLLOUT | POLLERR | POLLHUP) != 0 { source.output.flush() }
                if source.isReading && revents & (POLLIN | POLLERR | POLLHUP) != 0 {
                    source.read(into: &readBuffer, scratch: &decoded)
                }
                if source.isClient && revents & (POLLERR | POLLHUP) != 0 { source.peerHungUp = true }
            }
        }
        watched.removeAll(keepingCapacity: true)  // a closed client's source is let go now
        // Last, after the clients that hung up meanwhile are gone, so their places count as free.
        if listenerReadable, let controlSocket {
            dropFinishedClients()
            acceptClients(controlSocket)
        }
        return signalled
    }

    /// Images finished on the store's threads: each file that failed for the first time becomes
    /// one `image-failed` event for every command source (it answers no command), and a frame is
    /// asked for so the cards showing newly ready images are drawn again (not at exit:
    /// `requestingFrame` false).
    func takeImageChanges(requestingFrame: Bool = true) {
        let changes = images.takeChanges()
        for failure in changes.failures {
            Log.error("image \(failure.path): \(failure.error)")
            json.reset()
            Messages.imageFailed(path: failure.path, error: failure.error, into: &json)
            for source in sources { source.output.writeLine(json.bytes, event: true) }
        }
        if requestingFrame && displayIsOn && !changes.ready.isEmpty && !link.isFramePending && !waitsForImages {
            link.requestFrame()
        }
    }

    /// Logs once that standard output's reader fell more than the cap behind.
    private func noteStandardOutputOverCap() {
        guard !standardOutputOverCap, standardInput.output.isOverCap else { return }
        standardOutputOverCap = true
        Log.error(
            "stdout: its reader left more than \(RegularFile.mebibytes(Self.standardOutputCapacity)) of replies unread; no more replies are written to it"
        )
    }

    /// Returns true when a signal ends the run.
    private func handleSignals() -> Bool {
        var ends = false
        for number in signals.read() {
            switch number {
            case SIGHUP: reloadDeckFile()
            default:
                Log.info("signal \(number): restoring the display and exiting")
                quitting = true
                ends = true
            }
        }
        return ends
    }

    /// SIGHUP: read `--deck` again, on the loader's thread; `applyFinishedReloads` shows it.
    private func reloadDeckFile() {
        guard let path = options.deckPath else {
            Log.info("SIGHUP: no --deck file to reload (showing the demo deck)")
            return
        }
        pendingReloads.append((loader.queue(path), "SIGHUP"))
    }

    /// Shows the SIGHUP and `--watch` reloads that have been read, in order; a bad file leaves the current deck.
    private func applyFinishedReloads() {
        while let (load, cause) = pendingReloads.first, let result = load.result {
            pendingReloads.removeFirst()
            defer { loader.done(load) }
            do throws(RuntimeError) {
                try replaceDeck(with: try result.get(), path: load.path)
                Log.info("\(cause): reloaded \(load.path)")
                (backend as? InteractiveDisplay)?.showProblem(nil)
            } catch {
                reloadFailed(cause, error)
            }
        }
    }

    // MARK: Frames

    private func dispatchFrame() throws(RuntimeError) -> FrameTime? {
        do {
            return try link.dispatch()
        } catch {
            throw RuntimeError("display link failed: \(error)", display: error as? DisplayError)
        }
    }

    /// Renders `list` into `backend`'s frame buffer and presents it for `time`; `output` names the
    /// output in errors (nil for the first, or only, one).
    static func draw(
        _ list: DisplayList, deck: Deck, with renderer: Renderer, on backend: DisplayBackend, at time: FrameTime,
        output: String?
    ) throws(RuntimeError) {
        if let banded = backend as? BandedScanout {
            return try drawInBands(
                list, deck: deck, with: renderer, on: banded, size: backend.size, at: time, output: output)
        }
        let buffer = backend.frameBuffer()
        let forOutput = output.map { " for \($0)" } ?? ""
        do {
            let changedRows = try renderer.render(list, deck: deck, into: buffer)
            try backend.present(buffer, changedRows: changedRows, at: time)
        } catch let error as RenderError {
            throw RuntimeError("rendering\(forOutput) failed: \(error.message)")
        } catch {
            let onOutput = output.map { " on \($0)" } ?? ""
            throw RuntimeError("presenting a frame\(onOutput) failed: \(error)", display: error as? DisplayError)
        }
    }

    private func renderFrame(_ time: FrameTime) throws(RuntimeError) {
        let origin = timeOrigin ?? time.timestamp
        timeOrigin = origin
        finishedTags.removeAll(keepingCapacity: true)
        // The wall clock may jump (NTP setting a Pi's clock after boot): on a real link the offset
        // is measured again every frame, so clocks show the corrected time from the next frame.
        // The virtual clock keeps the offset from the start, so a run is the same every time.
        if !link.isVirtual { scene.clockOffset = Self.wallClockNow() - link.now }
        let finished = scene.frame(at: time, into: &displayList, finishedTags: &finishedTags)
        noteCardsWithoutWidth()
        try Self.draw(displayList, deck: scene.deck, with: renderer, on: backend, at: time, output: nil)
        trace?.write(
            frame: frameNumber, timestamp: time.timestamp - origin, target: time.targetTimestamp - origin,
            list: displayList, deck: scene.deck)
        frameNumber += 1
        // Everything commanded since the last frame is in this one. An animation's first frame
        // draws it at progress 0, so this is when it began on screen.
        for tag in tagsAwaitingFrame where tagOwners[tag] != nil { presentedAt[tag] = time.targetTimestamp }
        tagsAwaitingFrame.removeAll(keepingCapacity: true)
        if let finished { emit(finished) }
        for tag in finishedTags {
            let presented = presentedAt.removeValue(forKey: tag)
            guard let event = tagEvents.removeValue(forKey: tag), let owner = tagOwners.removeValue(forKey: tag) else {
                continue
            }
            json.reset()
            Messages.finished(event, seq: owner.seq, presented: presented ?? time.targetTimestamp, into: &json)
            owner.source.output.writeLine(json.bytes, event: true)
        }
    }

    /// A layout whose columns, spacing and insets take the whole width leaves cards 0 px wide:
    /// nothing but headers is drawn and the trace lists no card. Said once for each layout and
    /// width (a new deck, `apply`, a resize), not every frame.
    func noteCardsWithoutWidth() {
        let layout = scene.layout
        let width = layout.viewport.width
        if let checked = layoutWidthChecked, checked.layout == layout.configuration, checked.width == width { return }
        layoutWidthChecked = (layout.configuration, width)
        guard layout.cardWidth < 1 else { return }
        let configuration = layout.configuration
        let insets = configuration.insets
        let needed =
            insets.left + insets.right + configuration.spacing * Double(layout.columns - 1) + Double(layout.columns)
        let grid = layout.columns > 1 ? "\(layout.columns) columns with spacing \(Int(configuration.spacing)) and " : ""
        Log.error(
            "the layout leaves cards no width: \(grid)insets \(Int(insets.left))+\(Int(insets.right)) need at least \(Int(needed.rounded(.up))) px, the screen gives \(width); no card is drawn (use fewer columns or smaller spacing or insets)"
        )
    }

    /// Reports a scroll's end to the source whose command started it, with that source's seq.
    func emit(_ event: ScrollFinished) {
        let presented = presentedAt.removeValue(forKey: event.tag)
        guard let owner = tagOwners.removeValue(forKey: event.tag) else { return }
        var local = event
        local.tag = owner.seq
        json.reset()
        Messages.scrollFinished(local, presented: presented, into: &json)
        owner.source.output.writeLine(json.bytes, event: true)
    }

    /// A session-wide tag for `seq` of `source` (scene tags must not collide across sources).
    func tag(for source: CommandSource, seq: Int) -> Int {
        let tag = nextTag
        nextTag += 1
        tagOwners[tag] = (source, seq)
        tagsAwaitingFrame.append(tag)
        return tag
    }

    /// "60" rather than "60.0"; a value too large for an Int (or not finite) in Swift's own form.
    static func format(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : value.description
    }
}

extension Session {
    /// How image fields become paths: relative to the deck file's folder (the working folder
    /// without a deck file), and only inside `--restrict-paths` when it is given. Resolved once
    /// per path (the check touches the file system).
    /// Seconds since the epoch (CLOCK_REALTIME).
    static func wallClockNow() -> Double {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        return Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9
    }

    /// The resolver for a deck read from `deckPath`. The `--deck` file is the operator's, as is
    /// its folder: the images it names may come from there as well as from `--restrict-paths`
    /// (the example deck's `images/` beside `/etc/marquee/deck.json`). A deck a client loads or
    /// applies is held to `--restrict-paths` alone.
    func imageResolver(deckPath: String?) -> (String) -> String? {
        var policy = paths
        if let deckPath, deckPath == options.deckPath {
            policy = policy.allowingReads(in: ImagePaths.folder(of: deckPath))
        }
        return Self.imagePaths(deckPath: deckPath, policy: policy, store: images)
    }

    /// Resolves image fields against the deck file's folder within `--restrict-paths`
    /// (`ImagePaths`), once per value; a path that is refused draws the placeholder and is
    /// reported once as `image-failed` through `store`.
    public static func imagePaths(deckPath: String?, policy: PathPolicy, store: ImageStore?) -> (String) -> String? {
        var known: [String: String?] = [:]
        return { value in
            if let answer = known[value] { return answer }
            let answer: String?
            switch ImagePaths.resolve(value, deckPath: deckPath, policy: policy) {
            case .success(let path): answer = path
            case .failure(let error):
                answer = nil
                store?.reportRefused(path: value, error: error.message)
            }
            if known.count >= 4096 { known.removeAll() }
            known[value] = answer
            return answer
        }
    }
}

extension String {
    /// Multi-line messages (a deck's problem list) folded onto one line for a JSON reply.
    var replacingNewlines: String {
        split(separator: "\n").map { $0.trimmingCharacters() }.joined(separator: "; ")
    }
}

extension Substring {
    func trimmingCharacters() -> Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        return result
    }
}
