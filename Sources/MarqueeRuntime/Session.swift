import Glibc
import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol
import MarqueeRender

/// One run of Marquee: a deck on a display, driven by commands, timed by the display link.
///
/// Single-threaded: one `poll()` over the command input, the signal descriptor and the display
/// link's descriptor. Commands are queued in arrival order and applied one at a time; `wait` and
/// `snapshot` hold the queue until their condition is met, so replies stay in order and scripted
/// runs on the virtual clock are deterministic.
public final class Session {
    private let options: RunOptions
    private let backend: DisplayBackend
    private let link: DisplayLink
    private let renderer: Renderer
    private var scene: Scene
    private var displayList = DisplayList()
    private let output: LineWriter
    private let trace: TraceWriter?
    private let signals: SignalDescriptor
    private let paths: PathPolicy
    private var json = JSONWriter()

    private var decoder = CommandDecoder()
    private var decoded: [DecodedLine] = []
    private var queue: [(seq: Int, line: DecodedLine)] = []
    private var queueHead = 0
    private var nextSeq = 1
    private var hold: Hold?
    private var inputOpen = true
    private var quitting = false
    private var frameNumber = 0
    private var timeOrigin: Double?
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// Between `batch` and `commit`: the edits collected (with their seq), and the first problem
    /// found in the batch, which makes the commit fail.
    private var openBatch: (edits: [(seq: Int, command: Command)], problem: String?)?
    /// Tags of changes whose end is reported as an event, and that event's name.
    private var tagEvents: [Int: String] = [:]
    private var finishedTags: [Int] = []

    /// A command that holds the queue until its condition is met.
    private enum Hold {
        case seconds(seq: Int, deadline: Double)
        case idle(seq: Int)
        case snapshot(seq: Int, path: String)
    }

    /// Sets everything up; throws with a message for the user when something is missing.
    public init(options: RunOptions) throws(RuntimeError) {
        self.options = options
        let deck: Deck
        if let path = options.deckPath { deck = try DeckFile.load(path) } else { deck = DemoDeck.make() }
        backend = try Self.makeBackend(options)
        link = backend.displayLink
        do {
            renderer = try Renderer(fontOverride: options.fontPath)
            try renderer.prepare(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        scene = Scene(deck: deck, viewport: backend.size)
        output = LineWriter(fd: options.outputDescriptor, flushThreshold: 16 * 1024)
        trace = try options.tracePath.map { path throws(RuntimeError) in try TraceWriter(path: path) }
        paths =
            try options.restrictPaths.map { directory throws(RuntimeError) in try PathPolicy(directory: directory) }
            ?? .unrestricted
        signals = try SignalDescriptor()
        // A reader that goes away must not kill a kiosk: writes then fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    static func makeBackend(_ options: RunOptions) throws(RuntimeError) -> DisplayBackend {
        switch options.backend {
        case .auto:
            Log.info(
                "backend auto: using software (\(options.size), \(format(options.refreshRate)) Hz) — the DRM and fbdev backends are not built yet"
            )
        case .software:
            break
        case .drm, .fbdev:
            throw RuntimeError(
                "--backend \(options.backend.rawValue) is not available in this version of Marquee (real displays are being built); use --backend software"
            )
        }
        return SoftwareBackend(
            size: options.size, refreshRate: options.refreshRate, realtime: options.realtime,
            maximumFramesPerSecond: options.maximumFramesPerSecond)
    }

    /// Runs until `quit`, a signal, or the end of input (see SPEC §7). Returns the exit status.
    public func run() throws(RuntimeError) -> Int32 {
        defer {
            output.flush()
            trace?.flush()
            backend.restore()
        }
        if options.appearAtStart {
            scene.appear(stagger: 0.08)
        }
        while !quitting {
            try applyQueuedCommands()
            if quitting { break }
            if scene.needsFrame && !link.isFramePending { link.requestFrame() }
            if case .seconds(_, let deadline) = hold, link.isVirtual, !link.isFramePending {
                link.advanceIdle(to: deadline)
                continue
            }
            let finished = !inputOpen && queueHead == queue.count && hold == nil && !link.isFramePending
            if finished && (backend.name == "software" || options.exitOnEndOfInput) { break }
            try waitForEvents()
            if let time = try dispatchFrame() { try renderFrame(time) }
        }
        return 0
    }

    // MARK: Events

    private func waitForEvents() throws(RuntimeError) {
        var timeout = link.pollTimeoutMilliseconds()
        if case .seconds(_, let deadline) = hold, !link.isVirtual {
            let remaining = Int32(max(0, min(((deadline - link.now) * 1000).rounded(.up), 60_000)))
            timeout = timeout < 0 ? remaining : min(timeout, remaining)
        }
        if timeout != 0 {
            output.flush()
            trace?.flush()
        }
        var descriptors = [pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)]
        // Stop reading while a long backlog waits behind a `wait`: the pipe then pushes back.
        let readingInput = inputOpen && queue.count - queueHead < 4096
        if readingInput { descriptors.append(pollfd(fd: options.inputDescriptor, events: Int16(POLLIN), revents: 0)) }
        if let fd = link.pollDescriptor, link.isFramePending {
            descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
        if SystemCall.poll(&descriptors, timeoutMilliseconds: timeout) < 0 {
            throw RuntimeError("poll failed: \(SystemCall.errorText)")
        }
        if descriptors[0].revents != 0 { handleSignals() }
        if readingInput, descriptors[1].revents != 0 { readInput() }
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
            try replaceDeck(with: try DeckFile.load(path), tag: nil)
            Log.info("SIGHUP: reloaded \(path)")
        } catch {
            Log.error("SIGHUP: kept the current deck: \(error.message)")
        }
    }

    private func readInput() {
        let count = readBuffer.withUnsafeMutableBytes { SystemCall.read(options.inputDescriptor, into: $0) }
        decoded.removeAll(keepingCapacity: true)
        if count > 0 {
            decoder.feed(readBuffer[..<count], into: &decoded)
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
            if count < 0 { Log.error("reading commands failed: \(SystemCall.errorText); no more commands are read") }
            decoder.finish(into: &decoded)
            inputOpen = false
        }
        for line in decoded {
            queue.append((nextSeq, line))
            nextSeq += 1
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
            try renderer.render(displayList, deck: scene.deck, into: buffer)
            try backend.present(buffer, at: time)
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
            guard let event = tagEvents.removeValue(forKey: tag) else { continue }
            json.reset()
            Messages.finished(event, seq: tag, into: &json)
            output.writeLine(json.bytes)
        }
    }

    // MARK: Commands

    private func applyQueuedCommands() throws(RuntimeError) {
        while !quitting {
            if let current = hold {
                guard try release(current) else { return }
                hold = nil
            }
            guard queueHead < queue.count else {
                queue.removeAll(keepingCapacity: true)
                queueHead = 0
                return
            }
            let (seq, line) = queue[queueHead]
            queueHead += 1
            switch line {
            case .invalid(let message):
                if openBatch != nil, openBatch?.problem == nil {
                    openBatch?.problem = "line \(seq) was invalid: \(message)"
                }
                replyError(seq, message)
            case .command(let command):
                if openBatch != nil { collect(command, seq: seq) } else { apply(command, seq: seq) }
            }
        }
    }

    /// Whether a held command may finish now; answers it when it does.
    private func release(_ held: Hold) throws(RuntimeError) -> Bool {
        switch held {
        case .seconds(let seq, let deadline):
            guard link.now >= deadline - 1e-9 else { return false }
            replyOK(seq)
        case .idle(let seq):
            guard !scene.needsFrame, !link.isFramePending else { return false }
            replyOK(seq)
        case .snapshot(let seq, let path):
            guard !scene.hasUnpresentedChange else { return false }
            writeSnapshot(path, seq: seq)
        }
        return true
    }

    private func apply(_ command: Command, seq: Int) {
        switch command {
        case .scrollTo(let target, let options):
            scroll(to: target, options, seq: seq)
        case .scrollBy(let amount, let options):
            switch amount {
            case .rows(let rows): scroll(to: scene.target(byRows: rows), options, seq: seq)
            case .pixels(let pixels):
                scroll(to: .offset(max(0, scene.animator.destination + pixels)), options, seq: seq)
            }
        case .wait(.seconds(let seconds)):
            hold = .seconds(seq: seq, deadline: link.now + seconds)
        case .wait(.idle):
            hold = .idle(seq: seq)
        case .snapshot(let path):
            hold = .snapshot(seq: seq, path: path)
        case .load(let path):
            do {
                try replaceDeck(with: try DeckFile.load(try paths.checkRead(path)), tag: seq)
            } catch {
                replyError(seq, "load: " + error.message.replacingNewlines)
            }
        case .quit:
            replyOK(seq)
            quitting = true
        case .insert, .delete, .move, .update, .insertSection, .deleteSection:
            do throws(DeckEditError) {
                try edit(command, in: &scene, tag: nil)
                replyOK(seq)
            } catch {
                replyError(seq, "\(command.name): \(error.message)")
            }
        case .batch:
            openBatch = ([], nil)
            replyOK(seq)
        case .appear(let stagger, let duration):
            scene.appear(stagger: stagger ?? 0.08, duration: duration, tag: seq)
            scene.markTag(seq)
            tagEvents[seq] = "appear-finished"
            replyOK(seq)
        case .commit:
            replyError(seq, "commit: no batch is open (send batch first)")
        }
    }

    /// Inside a batch: edits are checked for form and kept; `commit` applies them all or none.
    private func collect(_ command: Command, seq: Int) {
        switch command {
        case .commit:
            let batch = openBatch!
            openBatch = nil
            if let problem = batch.problem {
                replyError(seq, "commit: the batch was not applied: \(problem)")
                return
            }
            var trial = scene
            for (editSeq, edit) in batch.edits {
                do throws(DeckEditError) {
                    try self.edit(edit, in: &trial, tag: seq)
                } catch {
                    replyError(
                        seq, "commit: the batch was not applied: line \(editSeq) (\(edit.name)): \(error.message)")
                    return
                }
            }
            scene = trial
            tagEvents[seq] = "batch-finished"
            scene.markTag(seq)
            replyOK(seq)
        case .quit:
            apply(command, seq: seq)
        default:
            guard command.isEdit else {
                let message =
                    "\(command.name) cannot stand inside a batch (only insert, delete, move, update, insert-section and delete-section; end it with commit)"
                if openBatch?.problem == nil { openBatch?.problem = "line \(seq): \(message)" }
                replyError(seq, message)
                return
            }
            openBatch?.edits.append((seq, command))
            replyOK(seq)
        }
    }

    /// Card edits (SPEC §5): applied at once, animated from the next frame; a failed edit changes
    /// nothing and is answered with why.
    private func edit(_ command: Command, in scene: inout Scene, tag: Int?) throws(DeckEditError) {
        func cardIndex(_ reference: CardReference) throws(DeckEditError) -> Int {
            switch reference {
            case .index(let index): return index
            case .id(let id):
                guard let index = scene.deck.globalIndex(ofCardWithID: id) else {
                    throw DeckEditError("no card has id \"\(id)\"")
                }
                return index
            }
        }
        switch command {
        case .insert(.index(let index), let card): try scene.insertCard(card, at: index, tag: tag)
        case .insert(.sectionItem(let section, let item), let card):
            try scene.insertCard(card, section: section, item: item, tag: tag)
        case .delete(let reference): try scene.deleteCard(at: try cardIndex(reference), tag: tag)
        case .move(let from, let to): try scene.moveCard(from: from, to: to, tag: tag)
        case .update(let reference, let card): try scene.updateCard(at: try cardIndex(reference), with: card, tag: tag)
        case .insertSection(let index, let section): try scene.insertSection(section, at: index, tag: tag)
        case .deleteSection(let index): try scene.deleteSection(at: index, tag: tag)
        default: preconditionFailure("Session.edit: \(command.name) is not an edit")
        }
    }

    private func scroll(to target: ScrollTarget, _ options: ScrollOptions, seq: Int) {
        let duration = options.duration ?? ScrollOptions.defaultDuration
        switch scene.scroll(to: target, duration: duration, curve: options.curve ?? .default, tag: seq) {
        case .failure(let error):
            replyError(seq, "scroll: \(error.message)")
        case .success(let replaced):
            replyOK(seq)
            if let replaced { emit(replaced) }
        }
    }

    /// Shows `deck` if its fonts can be opened; otherwise nothing changes. `tag` is the `load`
    /// command's seq (nil for SIGHUP), which is answered here.
    private func replaceDeck(with deck: Deck, tag: Int?) throws(RuntimeError) {
        do {
            try renderer.prepare(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        let replaced = scene.replaceDeck(deck)
        if let tag { replyOK(tag) }
        if let replaced { emit(replaced) }
    }

    private func writeSnapshot(_ path: String, seq: Int) {
        guard let frame = backend.presentedFrame() else {
            replyError(seq, "snapshot: no frame has been presented yet")
            return
        }
        do {
            try PNGFile.write(frame, to: try paths.checkWrite(path))
            replyOK(seq)
        } catch let error as RenderError {
            replyError(seq, "snapshot: \(error.message)")
        } catch {
            replyError(seq, "snapshot: \(error)")
        }
    }

    // MARK: Output

    private func replyOK(_ seq: Int) {
        json.reset()
        Messages.ok(seq: seq, into: &json)
        output.writeLine(json.bytes)
    }

    private func replyError(_ seq: Int, _ message: String) {
        json.reset()
        Messages.error(seq: seq, message: message, into: &json)
        output.writeLine(json.bytes)
    }

    private func emit(_ event: ScrollFinished) {
        json.reset()
        Messages.scrollFinished(event, into: &json)
        output.writeLine(json.bytes)
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
