import MarqueeCore
import MarqueeDisplay
import MarqueeRender

/// Everything `marquee run` was asked to do (the command line, parsed and validated).
public struct RunOptions: Sendable {
    public var backend: BackendKind = .auto
    public var deckPath: String?
    public var size = PixelSize(width: 1280, height: 720)
    public var refreshRate = 60.0
    public var realtime = false
    public var maximumFramesPerSecond: Double?
    /// `--device`: a DRM card node or an fbdev device.
    public var devicePath: String?
    /// `--connector` (DRM), as the kernel names it: `HDMI-A-1`.
    public var connector: String?
    /// `--mode WxH[@HZ]` (DRM).
    public var mode: ModeRequest?
    /// The outputs after the first, with their own `--mode` and `--rotate`, when `--connector` is
    /// given more than once (DRM): each shows the deck at its own size.
    public var furtherOutputs: [DRMOutputRequest] = []
    /// `--rotate`, on every backend.
    public var rotation: Rotation = .none
    /// True when `--rotate` was given: on DRM it then overrides the panel's own orientation.
    public var rotationIsExplicit = false
    /// `--wait-for-display` (DRM): with no display connected at start, wait for one.
    public var waitForDisplay = false
    /// `--seat` (DRM): open the device through libseat (seatd or logind), as an ordinary user.
    public var seat = false
    /// `--no-atomic` or `MARQUEE_DRM_NO_ATOMIC=1`.
    public var forceLegacyModesetting = false
    /// `MARQUEE_SNAPSHOT_WRITEBACK=1`: DRM snapshots read the scan-out back (docs/testing.md).
    public var writebackSnapshots = false
    public var fontPath: String?
    public var tracePath: String?
    public var exitOnEndOfInput = false
    /// Confine `snapshot` and `load` to files under this directory (`--restrict-paths`).
    public var restrictPaths: String?
    /// Also take commands from clients of a Unix socket at this path (`--control-socket`).
    public var controlSocket: String?
    /// Clients of the control socket served at once (`--max-clients`); more are refused.
    public var maxClients = RunOptions.defaultMaxClients
    public static let defaultMaxClients = 64
    /// Also take commands from an MQTT broker (`--mqtt` and the `--mqtt-*` flags).
    public var mqtt: MQTTSettings?
    /// The scaled images kept ready to draw, in MiB (`--image-cache`).
    public var imageCacheMegabytes = ImageStoreLimits.defaultCacheMegabytes
    /// The largest picture decoded, in pixels (`--image-max-pixels`), checked from its header.
    public var imageMaxPixels = ImageStoreLimits.defaultMaximumPixels
    /// The image store's bounds for these options.
    public var imageLimits: ImageStoreLimits {
        ImageStoreLimits(cacheBytes: imageCacheMegabytes << 20, maximumPixels: imageMaxPixels)
    }
    /// Play the appear sequence when the deck is first shown.
    public var appearAtStart = false
    /// Tests: the wall-clock time (seconds since the epoch) the virtual clock starts at, for
    /// clock elements and schedules; the real time when nil.
    public var virtualWallClockStart: Double?
    /// Reload `deckPath` whenever the file changes (`--watch`), keeping the scroll offset.
    public var watchDeck = false
    /// Where commands come from and replies go (stdin and stdout; tests pass pipes).
    public var inputDescriptor: Int32 = 0
    public var outputDescriptor: Int32 = 1

    public init() {}

    /// The files the flags name for reading, each with how messages call it: what a file written
    /// at run time (a trace, a snapshot) must not replace.
    var inputFiles: [(what: String, path: String?)] {
        [
            ("the --deck file", deckPath), ("the --font file", fontPath), ("the --mqtt-ca file", mqtt?.caFile),
            ("the --mqtt-password-file", mqtt?.passwordFile),
        ]
    }
}
