import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol
import MarqueeRender

/// One run of Marquee: a deck on a display, driven by commands, timed by the display link.
///
/// Single-threaded: one `poll()` over the command sources (stdin and, with `--control-socket`,
/// the listening socket and its clients), the signal descriptor and the display link's
/// descriptor. Each source's commands are queued in arrival order and applied one at a time;
/// `wait` and `snapshot` hold that source's queue until their condition is met, so its replies
/// stay in order and scripted runs on the virtual clock are deterministic.
public final class Session {
    let options: RunOptions
    let backend: DisplayBackend
    let link: DisplayLink
    let renderer: Renderer
    var scene: Scene
    private var displayList = DisplayList()
    private let trace: TraceWriter?
    private let signals: SignalDescriptor
    private let controlSocket: ControlSocket?
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
    private var reading: [CommandSource] = []
    /// Scene tags are session-wide; each belongs to one source's command.
    var tagOwners: [Int: (source: CommandSource, seq: Int)] = [:]
    var nextTag = 1
    /// Tags whose end is reported as an event, and that event's name.
    var tagEvents: [Int: String] = [:]
    private var finishedTags: [Int] = []

    /// Sets everything up; throws with a message for the user when something is missing.
    public init(options: RunOptions) throws(RuntimeError) {
        self.options = options
        let deck: Deck
        if let path = options.deckPath { deck = try DeckFile.load(path) } else { deck = DemoDeck.make() }
        // Fonts first: a missing font must not cost the display a modeset and a restore.
        do {
            renderer = try Renderer(fontOverride: options.fontPath)
            try renderer.prepare(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        backend = try BackendChoice.open(options)
        link = backend.displayLink
        scene = Scene(deck: deck, viewport: backend.size)
        standardInput = CommandSource(
            name: "stdin", input: options.inputDescriptor,
            output: LineWriter(fd: options.outputDescriptor, flushThreshold: 16 * 1024), isClient: false)
        sources = [standardInput]
        trace = try options.tracePath.map { path throws(RuntimeError) in try TraceWriter(path: path) }
        paths =
            try options.restrictPaths.map { directory throws(RuntimeError) in try PathPolicy(directory: directory) }
            ?? .unrestricted
        controlSocket = try options.controlSocket.map { path throws(RuntimeError) in try ControlSocket(path: path) }
        signals = try SignalDescriptor()
        // A reader that goes away must not kill a kiosk: writes then fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Runs until `quit`, a signal, or the end of input (see SPEC §7 and docs/protocol.md).
    /// Returns the exit status.
    public func run() throws(RuntimeError) -> Int32 {
        defer {
            for source in sources { source.output.flush() }
            trace?.flush()
            backend.restore()
        }
        if options.appearAtStart {
            scene.appear(stagger: 0.08)
        }
        while !quitting {
            try applyQueuedCommands()
            if quitting { break }
            dropFinishedClients()
            if scene.needsFrame && !link.isFramePending { link.requestFrame() }
            if link.isVirtual, !link.isFramePending, let deadline = earliestWaitDeadline() {
                link.advanceIdle(to: deadline)
                continue
            }
            // The software backend ends with its input, unless a control socket keeps it serving.
            let endsWithInput = (backend.name == "software" && controlSocket == nil) || options.exitOnEndOfInput
            if endsWithInput && standardInput.isFinished && !link.isFramePending { break }
            try waitForEvents()
            if let time = try dispatchFrame() { try renderFrame(time) }
        }
        return 0
    }

    private func earliestWaitDeadline() -> Double? {
        sources.compactMap { source -> Double? in
            if case .seconds(_, let deadline) = source.hold { return deadline }
            return nil
        }.min()
    }

    /// Clients that have hung up and been answered are closed and forgotten.
    private func dropFinishedClients() {
        sources.removeAll { source in
            guard source.isClient, source.isFinished else { return false }
            source.output.flush()
            close(source.inputDescriptor)
            for (tag, owner) in tagOwners where owner.source === source { tagOwners[tag] = nil }
            return true
        }
    }

    // MARK: Events

    private func waitForEvents() throws(RuntimeError) {
        var timeout = link.pollTimeoutMilliseconds()
        if !link.isVirtual, let deadline = earliestWaitDeadline() {
            let remaining = Int32(max(0, min(((deadline - link.now) * 1000).rounded(.up), 60_000)))
            timeout = timeout < 0 ? remaining : min(timeout, remaining)
        }
        if timeout != 0 {
            for source in sources { source.output.flush() }
            trace?.flush()
        }
        // Kept across waits (capacity and all): a wait per frame should not allocate.
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0))
        if let controlSocket { descriptors.append(pollfd(fd: controlSocket.fd, events: Int16(POLLIN), revents: 0)) }
        // Stop reading a source while a long backlog waits behind its `wait`: its writer is then
        // pushed back by the pipe or socket instead of Marquee buffering without bound.
        reading.removeAll(keepingCapacity: true)
        for source in sources where source.isReading && source.pendingCount < 4096 { reading.append(source) }
        for source in reading {
            descriptors.append(pollfd(fd: source.inputDescriptor, events: Int16(POLLIN), revents: 0))
        }
        // The link's descriptor is there while it expects an event (a flip may complete after the
        // last frame was requested; its event must be read then, not when the next frame is).
        if let fd = link.pollDescriptor {
            descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
        if SystemCall.poll(&descriptors, timeoutMilliseconds: timeout) < 0 {
            throw RuntimeError("poll failed: \(SystemCall.errorText)")
        }
        if descriptors[0].revents != 0 { handleSignals() }
        var next = 1
        if let controlSocket {
            if descriptors[next].revents != 0 { acceptClients(controlSocket) }
            next += 1
        }
        for (offset, source) in reading.enumerated() where descriptors[next + offset].revents != 0 {
            source.read(into: &readBuffer, scratch: &decoded)
        }
        reading.removeAll(keepingCapacity: true)  // a closed client's source is let go now
    }

    private func acceptClients(_ socket: ControlSocket) {
        while let client = socket.accept() {
            sources.append(
                CommandSource(
                    name: "control client \(client)", input: client,
                    output: LineWriter(fd: client, flushThreshold: 16 * 1024),
                    isClient: true))
        }
    }

    private func handleSignals() {
        for number in signals.read() {
            switch number {
            case SIGHUP: reloadDeckFile()
            default:
                Log.info("signal \(number): restoring the display and exiting")
                quitting = true
            }
        }
    }

    /// SIGHUP: read `--deck` again; a bad file leaves the current deck on screen.
    private func reloadDeckFile() {
        guard let path = options.deckPath else {
            Log.info("SIGHUP: no --deck file to reload (showing the demo deck)")
            return
        }
        do {
            try replaceDeck(with: try DeckFile.load(path))
            Log.info("SIGHUP: reloaded \(path)")
        } catch {
            Log.error("SIGHUP: kept the current deck: \(error.message)")
        }
    }

    // MARK: Frames

    private func dispatchFrame() throws(RuntimeError) -> FrameTime? {
        do {
            return try link.dispatch()
        } catch {
            throw RuntimeError("display link failed: \(error)")
        }
    }

    private func renderFrame(_ time: FrameTime) throws(RuntimeError) {
        let origin = timeOrigin ?? time.timestamp
        timeOrigin = origin
        finishedTags.removeAll(keepingCapacity: true)
        let finished = scene.frame(at: time, into: &displayList, finishedTags: &finishedTags)
        let buffer = backend.frameBuffer()
        do {
            let changedRows = try renderer.render(displayList, deck: scene.deck, into: buffer)
            try backend.present(buffer, changedRows: changedRows, at: time)
        } catch let error as RenderError {
            throw RuntimeError("rendering failed: \(error.message)")
        } catch {
            throw RuntimeError("presenting a frame failed: \(error)")
        }
        trace?.write(
            frame: frameNumber, timestamp: time.timestamp - origin, target: time.targetTimestamp - origin,
            list: displayList, deck: scene.deck)
        frameNumber += 1
        if let finished { emit(finished) }
        for tag in finishedTags {
            guard let event = tagEvents.removeValue(forKey: tag), let owner = tagOwners.removeValue(forKey: tag) else {
                continue
            }
            json.reset()
            Messages.finished(event, seq: owner.seq, into: &json)
            owner.source.output.writeLine(json.bytes)
        }
    }

    /// Reports a scroll's end to the source whose command started it, with that source's seq.
    func emit(_ event: ScrollFinished) {
        guard let owner = tagOwners.removeValue(forKey: event.tag) else { return }
        var local = event
        local.tag = owner.seq
        json.reset()
        Messages.scrollFinished(local, into: &json)
        owner.source.output.writeLine(json.bytes)
    }

    /// A session-wide tag for `seq` of `source` (scene tags must not collide across sources).
    func tag(for source: CommandSource, seq: Int) -> Int {
        let tag = nextTag
        nextTag += 1
        tagOwners[tag] = (source, seq)
        return tag
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : value.description
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
