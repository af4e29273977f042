import MarqueeCore

/// A display whose outputs come and go: a TV switched off and on, a cable pulled and pushed back
/// (DRM). The run loop polls `hotplugDescriptor` and, when it is readable, takes the changes: each
/// is logged and reported as a `display` event, and a new frame size is laid out as a `load`
/// would.
public protocol DisplayHotplug: AnyObject {
    /// Readable when displays may have been plugged in or out; nil when nothing is watched.
    var hotplugDescriptor: Int32? { get }
    /// Reads what the descriptor reported, probes the outputs again, and returns what changed.
    func takeDisplayChanges() -> [DisplayChange]
    /// Probes the outputs again without waiting for an event, and returns what changed: after a
    /// time away on another virtual terminal (`--seat`), when a display may have been plugged in
    /// or out unseen.
    func probeDisplays() -> [DisplayChange]
}

/// One output connected or disconnected.
public struct DisplayChange: Equatable, Sendable {
    public enum State: String, Sendable {
        case connected
        case disconnected
    }

    /// The connector, as the kernel names it (`HDMI-A-1`).
    public var connector: String
    public var state: State
    /// The mode set, `1920x1080@60`, when connected.
    public var mode: String?
    /// The frame size after the change, when it differs from the size before.
    public var resized: PixelSize?

    public init(connector: String, state: State, mode: String? = nil, resized: PixelSize? = nil) {
        self.connector = connector
        self.state = state
        self.mode = mode
        self.resized = resized
    }
}
