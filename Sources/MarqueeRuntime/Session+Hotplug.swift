import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol

/// Displays plugged in and out (DRM hotplug): each change is logged, reported to every command
/// source as a `display` event, and a new size laid out as a `load` would.
extension Session {
    /// The backend's hotplug descriptor, polled with the others (nil: nothing to watch).
    var hotplugDescriptor: Int32? { (backend as? DisplayHotplug)?.hotplugDescriptor }

    func takeDisplayChanges() {
        guard let hotplug = backend as? DisplayHotplug else { return }
        for change in hotplug.takeDisplayChanges() {
            Log.info(
                "display: \(change.connector) \(change.state.rawValue)\(change.mode.map { " (\($0))" } ?? "")")
            json.reset()
            Messages.display(
                connector: change.connector, state: change.state.rawValue, mode: change.mode, into: &json)
            for source in sources { source.output.writeLine(json.bytes, event: true) }
            if let size = change.resized {
                Log.info("display: laying the deck out for \(size)")
                if let ended = scene.resize(screen: size) { emit(ended) }
            }
            // The current frame, at the first vblank of the display that came back.
            if change.state == .connected { scene.needsRedraw() }
        }
    }

    /// The same for an output after the first: its own scene follows its own size.
    func takeDisplayChanges(of output: FurtherOutput) {
        guard let hotplug = output.backend as? DisplayHotplug else { return }
        for change in hotplug.takeDisplayChanges() {
            Log.info(
                "display: \(change.connector) \(change.state.rawValue)\(change.mode.map { " (\($0))" } ?? "")")
            json.reset()
            Messages.display(
                connector: change.connector, state: change.state.rawValue, mode: change.mode, into: &json)
            for source in sources { source.output.writeLine(json.bytes, event: true) }
            if let size = change.resized {
                Log.info("display: laying the deck out for \(size) on \(change.connector)")
                _ = output.scene.resize(screen: size)
            }
            if change.state == .connected { output.scene.needsRedraw() }
        }
    }
}
