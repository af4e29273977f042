import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol

/// Displays plugged in and out (DRM hotplug): each change is logged, reported to every command
/// source as a `display` event (each output's under its own connector), and a new size laid out
/// as a `load` would, in the scene of the output that changed.
extension Session {
    /// The backend's hotplug descriptor, polled with the others (nil: nothing to watch).
    var hotplugDescriptor: Int32? { (backend as? DisplayHotplug)?.hotplugDescriptor }

    func takeDisplayChanges() {
        guard let hotplug = backend as? DisplayHotplug else { return }
        apply(hotplug.takeDisplayChanges())
    }

    /// The same for an output after the first: its own scene follows its own size.
    func takeDisplayChanges(of output: FurtherOutput) {
        guard let hotplug = output.backend as? DisplayHotplug else { return }
        apply(hotplug.takeDisplayChanges(), of: output)
    }

    /// Probes every output's connectors again (back from another virtual terminal, where uevents
    /// may have gone by unseen) and handles what changed as a hotplug.
    func probeDisplays() {
        if let hotplug = backend as? DisplayHotplug { apply(hotplug.probeDisplays()) }
        for output in furtherOutputs {
            if let hotplug = output.backend as? DisplayHotplug { apply(hotplug.probeDisplays(), of: output) }
        }
    }

    /// Reports `changes` of the first output (`of` nil) or of a further one, and lays its scene out
    /// for a new size. Only the first output's scene events are reported.
    private func apply(_ changes: [DisplayChange], of output: FurtherOutput? = nil) {
        for change in changes {
            Log.info(
                "display: \(change.connector) \(change.state.rawValue)\(change.mode.map { " (\($0))" } ?? "")")
            json.reset()
            Messages.display(
                connector: change.connector, state: change.state.rawValue, mode: change.mode, into: &json)
            for source in sources { source.output.writeLine(json.bytes, event: true) }
            if output == nil {
                if change.state == .disconnected {
                    disconnectedConnector = change.connector
                } else if disconnectedConnector == change.connector {
                    disconnectedConnector = nil
                }
            }
            if let size = change.resized {
                Log.info("display: laying the deck out for \(size) on \(change.connector)")
                if let output {
                    _ = output.scene.resize(screen: size)
                } else if let ended = scene.resize(screen: size) {
                    emit(ended)
                }
            }
            // The current frame, at the first vblank of the display that came back.
            if change.state == .connected {
                if let output { output.scene.needsRedraw() } else { scene.needsRedraw() }
            }
        }
    }
}
