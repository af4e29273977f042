import CDRM
import Glibc
import MarqueeCore

/// What `--backend drm` was asked for.
public struct DRMOptions: Sendable {
    /// `--device`; nil takes the first card with a connected display.
    public var devicePath: String?
    /// `--connector`, as the kernel names it (`HDMI-A-1`).
    public var connector: String?
    public var mode: ModeRequest?
    public var rotation: Rotation = .none
    /// `--no-atomic` or `MARQUEE_DRM_NO_ATOMIC=1`.
    public var forceLegacy = false
    public var maximumFramesPerSecond: Double?
    /// `MARQUEE_SNAPSHOT_WRITEBACK=1`: snapshots read the scan-out back through a writeback
    /// connector.
    public var writebackSnapshots = false

    public init() {}
}

/// Shows frames on a display through DRM/KMS: a mode set on one CRTC, two dumb buffers flipped at
/// vblank, and the display link timed by the flip events.
///
/// Frames are rendered into a shadow buffer in ordinary memory and only the rows the back buffer
/// lacks are copied into it (turned by `--rotate` on the way), known from the rows the renderer
/// wrote (`ScanoutRows`), no pixel hashed: dumb buffers are write-combined memory that must never
/// be read. Each commit carries the rows that changed since the frame on screen as
/// `FB_DAMAGE_CLIPS` (drivers of SPI and USB panels send only those). Two buffers are enough because a frame is drawn only after
/// the previous flip completed (the flip event is what makes it due), so the back buffer is never
/// on screen while it is written.
public final class DRMBackend: DisplayBackend {
    public let name = "drm"
    public let size: PixelSize
    public let rotation: Rotation
    /// "Virtual-1 1024x768@60 on /dev/dri/card0 (vkms), atomic", for the log.
    public let summary: String
    let device: DRMDevice
    var output: DRMOutput
    var modesetter: DRMModesetter
    var buffers: [DumbBuffer]
    private let shadow: PixelBuffer
    private var rows: ScanoutRows
    private let saved: SavedCRTC
    let link: DRMDisplayLink
    private let writeback: WritebackCapture?
    let log: (String) -> Void
    var front = 0
    /// False after `display off`: no frame is flipped until `display on`.
    var isPoweredOn = true
    private var restored = false
    private var hasPresented = false

    public init(options: DRMOptions, log: @escaping (String) -> Void) throws(DisplayError) {
        self.log = log
        rotation = options.rotation
        let (device, resources, output) = try Self.open(options)
        self.device = device
        self.output = output
        try device.becomeMaster()
        guard device.capability(DRM_CAP_DUMB_BUFFER) == 1 else {
            throw DisplayError(.backendUnavailable, "\(device.path) offers no dumb buffers")
        }
        saved = SavedCRTC(device: device, crtcID: output.crtcID, resources: resources)
        var modesetter: DRMModesetter = LegacyModesetter(device: device, output: output)
        var why = "forced by --no-atomic or MARQUEE_DRM_NO_ATOMIC"
        if !options.forceLegacy {
            do {
                modesetter = try AtomicModesetter(device: device, output: output)
            } catch {
                why = error.message
            }
        }
        let panel = PixelSize(width: output.mode.width, height: output.mode.height)
        buffers = try [0, 1].map { _ throws(DisplayError) in
            try DumbBuffer(device: device, width: panel.width, height: panel.height)
        }
        buffers[0].fill(0xFF00_0000)
        do {
            try modesetter.setMode(framebuffer: buffers[0].framebufferID)
        } catch {
            guard modesetter.name == "atomic" else { throw error }
            // Some drivers take the atomic capability but refuse a commit the legacy call makes
            // fine; a kiosk should come up rather than ask its user for --no-atomic.
            log("drm: \(error.message); trying legacy modesetting")
            why = "the atomic modeset failed"
            modesetter = LegacyModesetter(device: device, output: output)
            try modesetter.setMode(framebuffer: buffers[0].framebufferID)
        }
        self.modesetter = modesetter
        size = options.rotation.logicalSize(ofPanel: panel)
        shadow = PixelBuffer(width: size.width, height: size.height)
        rows = ScanoutRows(rows: size.height, buffers: 2)

        let reported = output.mode.refreshRate
        let plausible = FramePacing.plausibleRate(reported)
        // Events of a display with an implausible rate are not real vblanks: none is skipped by
        // count, the wall clock alone holds frames to --max-fps.
        let pacing = FramePacing(
            refreshRate: plausible ?? 60, maximumFramesPerSecond: options.maximumFramesPerSecond,
            countsVblanks: plausible != nil)
        let monotonic = device.capability(DRM_CAP_TIMESTAMP_MONOTONIC) == 1
        link = DRMDisplayLink(
            fd: device.fd, crtcIndex: output.crtcIndex, pacing: pacing, monotonicTimestamps: monotonic, log: log)
        writeback = options.writebackSnapshots ? WritebackCapture(device: device, output: output, log: log) : nil

        summary =
            "\(output.connector.name) \(output.mode.description) on \(device.path) (\(device.driverName)), CRTC \(output.crtcID), \(modesetter.name) modesetting"
        log("drm: \(summary)\(modesetter.name == "legacy" ? " (\(why))" : ""), 2 dumb buffers")
        if plausible == nil {
            log("drm: the mode reports \(reported) Hz, which no panel has; timing frames at 60 Hz")
        }
        if !monotonic { log("drm: the driver's event times are not CLOCK_MONOTONIC; frames are timed on arrival") }
        if options.rotation != .none {
            log("drm: rotating by \(options.rotation.rawValue)° while copying; frames are \(size.width)x\(size.height)")
        }
        log("drm: saved \(saved.description) to restore at exit")
    }

    deinit { restore() }

    /// The device and output that `options` name, or the first card with a connected display.
    private static func open(_ options: DRMOptions) throws(DisplayError) -> (DRMDevice, DRMResources, DRMOutput) {
        if let path = options.devicePath {
            let device = try DRMDevice.open(path)
            let resources = try DRMResources(device)
            let output = try DRMOutput.choose(
                on: device.path, resources: resources, connector: options.connector, mode: options.mode)
            return (device, resources, output)
        }
        let paths = DRMDevice.cardPaths()
        guard !paths.isEmpty else {
            throw DisplayError(.backendUnavailable, "no DRM device: /dev/dri has no card* nodes")
        }
        var problems: [DisplayError] = []
        for path in paths {
            do {
                let device = try DRMDevice.open(path)
                let resources = try DRMResources(device)
                let output = try DRMOutput.choose(
                    on: device.path, resources: resources, connector: options.connector, mode: options.mode)
                return (device, resources, output)
            } catch {
                problems.append(error)
            }
        }
        // One card: its own message says it best. Several: the one that got furthest (a mode or
        // connector problem beats "no display", which beats "cannot open").
        if problems.count == 1 { throw problems[0] }
        let ranked =
            problems.first { $0.code == .unsupportedRequest } ?? problems.first { $0.code == .permissionDenied }
        throw ranked
            ?? DisplayError(
                .noDisplay, "no DRM card has a connected display: " + problems.map(\.message).joined(separator: "; "))
    }

    public var displayLink: DisplayLink { link }

    public func frameBuffer() -> PixelBuffer { shadow }

    public func present(_ buffer: PixelBuffer, changedRows: Range<Int>, at time: FrameTime) throws(DisplayError) {
        precondition(buffer === shadow, "DRMBackend.present: not the buffer handed out by frameBuffer()")
        rows.add(changedRows)
        // Off, the CRTC takes no flips; the rows wait in the shadow for the frame after `on`.
        guard isPoweredOn else { return }
        // A frame that changed nothing is still flipped: the flip event is what paces the next
        // frame (`--max-fps` counts vblanks from the last flip). It carries no clips then, which
        // the kernel takes as the whole frame (skipping the commit needs the link to count a
        // frame without a flip: docs/architecture.md, "Damage to the kernel").
        let clip = DamageClip(frameRows: changedRows, frame: size, rotation: rotation)
        let back = 1 - front
        FrameCopier.copy(shadow, rows: rows.lacking(inBuffer: back), to: buffers[back].surface, rotation: rotation)
        rows.written(buffer: back)
        let result = modesetter.flip(
            to: buffers[back].framebufferID, damage: hasPresented ? clip : nil, events: link.events)
        if case .failure(let code) = result {
            throw DisplayError(.systemCall, "page flip on \(output.connector.name) failed: \(code)", errno: code)
        }
        link.flipQueued()
        front = back
        hasPresented = true
    }

    /// The frame on screen as the panel shows it: read back through the writeback connector when
    /// asked for, else Marquee's own copy (the shadow buffer, turned like the panel).
    public func presentedFrame() -> PixelBuffer? {
        guard hasPresented else { return nil }
        if let writeback {
            link.waitForFlip()
            do {
                return try writeback.capture(framebuffer: buffers[front].framebufferID)
            } catch {
                log("snapshot: \(error.message); using Marquee's copy of the frame")
            }
        }
        guard rotation != .none else { return shadow }
        let panel = rotation.panelSize(ofLogical: shadow.size)
        let image = PixelBuffer(width: panel.width, height: panel.height)
        FrameCopier.copy(shadow, rows: 0..<shadow.height, to: image.surface, rotation: rotation)
        return image
    }

    /// Puts back the CRTC configuration found at start and drops master (SPEC §7). Safe to call
    /// more than once.
    public func restore() {
        guard !restored else { return }
        restored = true
        link.waitForFlip()
        switch saved.restore(on: device) {
        case .success: log("drm: restored \(saved.description)")
        case .failure(let code): log("drm: could not restore \(saved.description): \(code)")
        }
        device.dropMaster()
    }
}
