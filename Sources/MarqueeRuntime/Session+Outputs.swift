import MarqueeCore
import MarqueeDisplay
import MarqueeRender

/// An output after the first (`--connector` given more than once): the same deck laid out at its
/// own size, in a scene of its own that every change of the first output's scene is applied to
/// too (`Session.changeScenes`), drawn by its own renderer into its own backend, and timed by its
/// own display link (its CRTC's vblanks).
///
/// The first output stays the one commands answer to: its scene's events (`scroll-finished`,
/// `batch-finished`...), `wait idle`, `snapshot` and `--trace` are as with one output. A further
/// output's scene reaches the same states at the same link times, each output at its own
/// vblanks; its events are dropped, and its frames go to a trace of their own
/// (`FurtherOutput.tracePath`).
final class FurtherOutput {
    let backend: DisplayBackend
    let link: DisplayLink
    let renderer: Renderer
    var scene: Scene
    var displayList = DisplayList()
    private var finishedTags: [Int] = []
    let trace: TraceWriter?
    private var frameNumber = 0
    private var timeOrigin: Double?

    init(backend: DisplayBackend, scene: Scene, renderer: Renderer, trace: TraceWriter?) {
        self.backend = backend
        link = backend.displayLink
        self.scene = scene
        self.renderer = renderer
        self.trace = trace
    }

    /// The name the log and the trace file give this output (its connector).
    var name: String { Self.name(of: backend) }
    static func name(of backend: DisplayBackend) -> String {
        (backend as? DRMBackend)?.connectorName ?? backend.name
    }

    /// `--trace t.jsonl` puts this output's frames in `t.HDMI-A-2.jsonl` (the connector's name
    /// before the extension; after the name when there is none).
    static func tracePath(_ path: String, output: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[slash...].lastIndex(of: "."), dot != slash else { return path + "." + output }
        return String(path[..<dot]) + "." + output + String(path[dot...])
    }

    /// The link time at which something on this output changes by itself (a clock, a marquee,
    /// a playback dwell ending).
    var nextChange: Double? { Session.nextChange(of: scene, drawnBy: renderer) }

    /// Asks its link for a frame when its scene moves, or is about to change by itself.
    func requestFrameIfNeeded() {
        guard !link.isFramePending else { return }
        if scene.needsFrame {
            link.requestFrame()
        } else if let redraw = nextChange, redraw - link.refreshPeriod <= link.now {
            link.requestFrame()
        }
    }

    /// How long the loop may sleep for this output, in milliseconds (-1: no limit).
    func pollTimeoutMilliseconds() -> Int32 {
        var timeout = link.pollTimeoutMilliseconds()
        if !link.isFramePending, let redraw = nextChange {
            timeout = Session.pollTimeout(timeout, wakingIn: redraw - link.refreshPeriod - link.now)
        }
        return timeout
    }

    /// Draws and presents a frame when its link says one is due.
    func dispatchAndRender() throws(RuntimeError) {
        let time: FrameTime?
        do {
            time = try link.dispatch()
        } catch {
            throw RuntimeError("display link of \(name) failed: \(error)")
        }
        guard let time else { return }
        let origin = timeOrigin ?? time.timestamp
        timeOrigin = origin
        scene.clockOffset = Session.wallClockNow() - link.now
        finishedTags.removeAll(keepingCapacity: true)
        // Its events are the first output's to report.
        _ = scene.frame(at: time, into: &displayList, finishedTags: &finishedTags)
        try Session.draw(displayList, deck: scene.deck, with: renderer, on: backend, at: time, output: name)
        trace?.write(
            frame: frameNumber, timestamp: time.timestamp - origin, target: time.targetTimestamp - origin,
            list: displayList, deck: scene.deck)
        frameNumber += 1
    }
}

extension Session {
    /// Every output's backend, the first one first.
    var outputBackends: [DisplayBackend] { [backend] + furtherOutputs.map(\.backend) }

    /// Applies `change` to the first output's scene, and then, when it went through, to every
    /// further output's scene, so that they all show the same deck in the same state. Returns the
    /// first scene's result (what the reply and the events are made from); a further scene's
    /// failure (none is expected: they went through the same changes) is logged.
    @discardableResult
    func changeScenes<Result, Failure: Error>(_ change: (inout Scene) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        let result = try change(&scene)
        for output in furtherOutputs {
            do {
                _ = try change(&output.scene)
            } catch {
                Log.error("output \(output.name): a change the first output took failed: \(error)")
            }
        }
        return result
    }

    /// Prepares every output's renderer for `style` (fonts opened once per renderer).
    func prepareRenderers(style: Style) throws(RenderError) {
        try renderer.prepare(style: style)
        for output in furtherOutputs { try output.renderer.prepare(style: style) }
    }

    /// How every output's renderer turns image fields into paths.
    func setImagePaths(_ resolver: @escaping (String) -> String?) {
        renderer.imagePath = resolver
        for output in furtherOutputs { output.renderer.imagePath = resolver }
    }

    /// The outputs after the first, each with its scene of `deck` at its size and a renderer like
    /// the first one's.
    static func makeFurtherOutputs(
        _ backends: [DisplayBackend], deck: Deck, first renderer: Renderer, clockOffset: Double, options: RunOptions
    ) throws(RuntimeError) -> [FurtherOutput] {
        var outputs: [FurtherOutput] = []
        for backend in backends {
            let output: Renderer
            do {
                output = try Renderer(fontOverride: options.fontPath)
                try output.prepare(style: deck.style)
            } catch {
                throw RuntimeError(error.message)
            }
            output.imageProvider = renderer.imageProvider
            output.imagePath = renderer.imagePath
            var scene = Scene(deck: deck, viewport: backend.size)
            scene.clockOffset = clockOffset
            let name = FurtherOutput.name(of: backend)
            let trace = try options.tracePath.map { path throws(RuntimeError) in
                // Checked against inputs before any trace was opened; again here against the trace
                // files opened so far, which now exist (a dangling symlink to one of them would
                // only have led somewhere once it was created).
                if let conflict = OutputPaths.traceConflict(
                    trace: path, furtherOutputs: outputs.map(\.name) + [name], inputs: [])
                {
                    throw RuntimeError(conflict, isUsage: true)
                }
                return try TraceWriter(path: FurtherOutput.tracePath(path, output: name))
            }
            Log.info("output \(name): the deck at \(backend.size), paced by its own vblanks")
            outputs.append(FurtherOutput(backend: backend, scene: scene, renderer: output, trace: trace))
        }
        return outputs
    }
}

extension Session {
    /// The trace files are emptied at start: neither `--trace` nor the file beside it of each
    /// further output (`FurtherOutput.tracePath`, named after `furtherOutputs`, its connector) may
    /// be the file standard input reads the commands from, the `--deck`, `--font` or an MQTT file,
    /// or a picture the deck shows (`inputs`, from `traceInputs`), and no two of them may be the
    /// same file. Checked before the display is opened with the connectors as `--connector` names
    /// them, and again once it is open with the kernel's names, before any trace file is opened.
    static func checkTraceIsNoInput(
        _ options: RunOptions, inputs: [(what: String, path: String?)], furtherOutputs: [String]
    ) throws(RuntimeError) {
        guard let trace = options.tracePath else { return }
        if let conflict = OutputPaths.traceConflict(
            trace: trace, furtherOutputs: furtherOutputs, inputs: inputs, inputDescriptor: options.inputDescriptor)
        {
            throw RuntimeError(conflict, isUsage: true)
        }
    }

    /// The files a trace must not be: those the flags name (the CLI refuses them too, before the
    /// deck is read) and the pictures `deck` shows.
    static func traceInputs(_ options: RunOptions, deck: Deck) -> [(what: String, path: String?)] {
        guard options.tracePath != nil else { return [] }
        return options.inputFiles + OutputPaths.pictures(of: deck, deckPath: options.deckPath)
    }
}
