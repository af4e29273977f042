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
    /// `--rotate`; nil: the panel's own orientation (the connector's `panel orientation`), else none.
    public var rotation: Rotation?
    /// `--no-atomic` or `MARQUEE_DRM_NO_ATOMIC=1`.
    public var forceLegacy = false
    public var maximumFramesPerSecond: Double?
    /// `MARQUEE_SNAPSHOT_WRITEBACK=1`: snapshots read the scan-out back through a writeback
    /// connector.
    public var writebackSnapshots = false
    /// `--wait-for-display`: with no display connected, wait for one instead of failing.
    public var waitForDisplay = false
    /// The outputs after the first (`--connector` given more than once), each with its own
    /// `--mode` and `--rotate`. They share the first one's card.
    public var furtherOutputs: [DRMOutputRequest] = []
    /// `--seat`: open the device through libseat (seatd or logind) instead of directly.
    public var seat = false

    public init() {}
}

/// Shows frames on a display through DRM/KMS: a mode set on one CRTC, two dumb buffers flipped at
/// vblank, and the display link timed by the flip events.
///
/// Frames are rendered in bands of 64 rows straight into the back buffer (`presentInBands`): the
/// rows it lacks, per the renderer's record of that buffer, are drawn a band at a time into a
/// small buffer in ordinary memory and each band is copied in at once (turned by `--rotate` on
/// the way), no pixel hashed: dumb buffers are write-combined memory that must never be read. The
/// shadow buffer (`frameBuffer()`, `present`) stays for snapshots and for callers that draw whole
/// frames; one session uses one path or the other, never both (`present` knows only the rows it
/// copied itself, `ScanoutRows`). Each commit carries the bands of rows that changed since the
/// frame on screen as `FB_DAMAGE_CLIPS`, one rectangle a band (drivers of SPI and USB panels send
/// only those), and a frame that changed
/// nothing is not committed at all (the display link counts it as flipped at its target vblank).
/// Two buffers are enough because a frame is drawn only after the previous flip completed (the
/// flip event is what makes it due), so the back buffer is never on screen while it is written.
public final class DRMBackend: DisplayBackend {
    public let name = "drm"
    public internal(set) var size: PixelSize
    public let rotation: Rotation
    /// "Virtual-1 1024x768@60 on /dev/dri/card0 (vkms), atomic", for the log.
    public let summary: String
    let device: DRMDevice
    /// The card, shared with the other outputs on it.
    let card: DRMCard
    var output: DRMOutput
    var modesetter: DRMModesetter
    var buffers: [DumbBuffer]
    var shadow: PixelBuffer
    var rows: ScanoutRows
    private let saved: SavedCRTC
    let link: DRMDisplayLink
    var writeback: WritebackCapture?
    let log: (String) -> Void
    let options: DRMOptions
    /// Hotplug events of the card; nil when the kernel's uevent socket could not be opened.
    let monitor: UeventMonitor?
    /// Atomic commits were chosen at start (hotplug keeps the choice for a new output).
    let usesAtomic: Bool
    var front = 0
    /// False after `display off`: no frame is flipped until `display on`.
    var isPoweredOn = true
    /// Whether the card's seat (`--seat`) is Marquee's now; always true without one. Every
    /// output on the card follows the same seat (`DRMCard.seat`).
    var seatPlan = SeatPlan()
    var isSeatActive: Bool { seatPlan.isActive }
    /// False while the connector has no display (it was unplugged, or the TV switched off).
    var isConnected = true
    /// Frames are flipped only while the display is on and connected (and the seat is Marquee's).
    var isShowing: Bool { isPoweredOn && isConnected && isSeatActive }
    /// False once the plane refused to turn the frames itself: a new modesetter (a display
    /// plugged in) does not ask it again.
    var planeMayTurn = true
    /// The plane's `rotation` as found at start, to put back at exit when Marquee's modeset
    /// changed it (nil: unchanged, no such property, or legacy modesetting, which never sets it).
    private var savedPlaneRotation: (plane: UInt32, property: PlaneRotation)?
    /// The turn made while copying into the dumb buffers: `rotation`, unless the display plane
    /// makes it (`DRMModesetter.planeRotation`; docs/architecture.md, "The half turn in the
    /// display plane").
    var copyRotation: Rotation { modesetter.planeRotation == .none ? rotation : .none }
    private var restored = false
    /// The fills the band copy writes from registers (`ConstantSpans`), kept across frames.
    private var constantSpans: ConstantSpans?
    var hasPresented = false
    /// True after a modeset (start, `display on`, a display plugged in, the seat back): the next
    /// frame is committed, without damage clips, whatever changed (all of it is new to the display).
    var commitsWholeFrame = true

    /// The output `options` name (the first, when `--connector` is given more than once).
    public convenience init(options: DRMOptions, log: @escaping (String) -> Void) throws(DisplayError) {
        let seat = options.seat ? try Seat.open(log: log) : nil
        let (device, resources, output, monitor) = try Self.open(options, seat: seat, log: log)
        try self.init(
            card: DRMCard(device: device, seat: seat), resources: resources, output: output, monitor: monitor,
            options: options, log: log)
    }

    /// One output on `card`, whose connector, mode and CRTC are chosen already.
    init(
        card: DRMCard, resources: DRMResources, output: DRMOutput, monitor: UeventMonitor?, options: DRMOptions,
        log: @escaping (String) -> Void
    ) throws(DisplayError) {
        self.log = log
        self.options = options
        let device = card.device
        self.card = card
        self.device = device
        self.output = output
        self.monitor = monitor
        // `--rotate` wins; else the panel's own mounting, as the connector reports it.
        rotation = options.rotation ?? output.connector.properties.panelRotation ?? .none
        try device.becomeMaster()
        guard device.capability(DRM_CAP_DUMB_BUFFER) == 1 else {
            throw DisplayError(.backendUnavailable, "\(device.path) offers no dumb buffers")
        }
        saved = SavedCRTC(device: device, crtcID: output.crtcID, resources: resources)
        var modesetter: DRMModesetter = LegacyModesetter(device: device, output: output)
        var why = "forced by --no-atomic or MARQUEE_DRM_NO_ATOMIC"
        if !options.forceLegacy {
            do {
                modesetter = try AtomicModesetter(device: device, output: output, rotation: rotation)
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
            if modesetter.planeRotation != .none,
                let unturned = try? AtomicModesetter(
                    device: device, output: output, rotation: rotation, turnsInPlane: false),
                (try? unturned.setMode(framebuffer: buffers[0].framebufferID)) != nil
            {
                // The plane lists the turn but refused it in this mode: the frames are turned
                // while copying instead, as on a plane without it.
                log("drm: the plane refused to turn the frames (\(error.message)); turning them while copying")
                planeMayTurn = false
                modesetter = unturned
            } else {
                // Some drivers take the atomic capability but refuse a commit the legacy call makes
                // fine; a kiosk should come up rather than ask its user for --no-atomic.
                log("drm: \(error.message); trying legacy modesetting")
                why = "the atomic modeset failed"
                modesetter = LegacyModesetter(device: device, output: output)
                try modesetter.setMode(framebuffer: buffers[0].framebufferID)
            }
        }
        self.modesetter = modesetter
        usesAtomic = modesetter.name == "atomic"
        if let atomic = modesetter as? AtomicModesetter, let property = atomic.plane.rotation,
            atomic.planeRotationValue != property.initialValue
        {
            savedPlaneRotation = (atomic.planeID, property)
        }
        size = rotation.logicalSize(ofPanel: panel)
        shadow = PixelBuffer(width: size.width, height: size.height)
        rows = ScanoutRows(rows: size.height, buffers: 2)

        let reported = output.mode.refreshRate
        let plausible = FramePacing.plausibleRate(reported)
        let pacing = Self.pacing(for: output.mode, options)
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
        if let orientation = output.connector.properties.panelOrientation, orientation != "Normal" {
            log(
                "drm: the panel's orientation is \(orientation)\(options.rotation == nil ? "" : "; --rotate \(rotation.rawValue) overrides it")"
            )
        }
        if rotation != .none {
            let how = modesetter.planeRotation == rotation ? "in the display plane" : "while copying"
            log("drm: rotating by \(rotation.rawValue)° \(how); frames are \(size.width)x\(size.height)")
        }
        log("drm: saved \(saved.description) to restore at exit")
        card.claim(output.crtcID, by: self)
    }

    /// Every output `options` asks for, first the one `--connector` names first: on one card,
    /// each on its own CRTC (chosen together, `DRMOutput.chooseAll`), each with its own mode,
    /// rotation, buffers and display link. Every connector must have a display at start.
    public static func openOutputs(options: DRMOptions, log: @escaping (String) -> Void) throws(DisplayError)
        -> [DRMBackend]
    {
        guard !options.furtherOutputs.isEmpty else { return [try DRMBackend(options: options, log: log)] }
        // One seat for the card: the seat manager opens the device once, and a switch to another
        // virtual terminal takes every output away together.
        let seat = options.seat ? try Seat.open(log: log) : nil
        let (device, _, first, firstMonitor) = try open(options, seat: seat, log: log)
        let resources = try DRMResources(device)
        let requests =
            [DRMOutputRequest(connector: first.connector.name, mode: options.mode, rotation: options.rotation)]
            + options.furtherOutputs
        let outputs = try DRMOutput.chooseAll(on: device.path, resources: resources, requests: requests)
        let card = DRMCard(device: device, seat: seat)
        var backends: [DRMBackend] = []
        for (index, (output, request)) in zip(outputs, requests).enumerated() {
            var own = options
            own.connector = output.connector.name
            own.mode = request.mode
            own.rotation = request.rotation
            own.furtherOutputs = []
            // Snapshots are of the first output: only it reads the scan-out back.
            own.writebackSnapshots = index == 0 && options.writebackSnapshots
            let monitor = index == 0 ? firstMonitor : Self.monitor(for: device, log: log)
            backends.append(
                try DRMBackend(
                    card: card, resources: resources, output: output, monitor: monitor, options: own, log: log))
        }
        return backends
    }

    deinit { restore() }

    /// The frame pacing of `mode`. Events of a display with an implausible rate are not real
    /// vblanks: none is skipped by count, the wall clock alone holds frames to --max-fps.
    static func pacing(for mode: DisplayMode, _ options: DRMOptions) -> FramePacing {
        let plausible = FramePacing.plausibleRate(mode.refreshRate)
        return FramePacing(
            refreshRate: plausible ?? 60, maximumFramesPerSecond: options.maximumFramesPerSecond,
            countsVblanks: plausible != nil)
    }

    /// The device and output that `options` name, or the first card with a connected display;
    /// with `--wait-for-display` and no display, waits for one. Also the card's hotplug monitor.
    private static func open(
        _ options: DRMOptions, seat: Seat?, log: (String) -> Void
    ) throws(DisplayError) -> (DRMDevice, DRMResources, DRMOutput, UeventMonitor?) {
        if let path = options.devicePath {
            let device = try DRMDevice.open(path, seat: seat)
            return try waitForOutput(on: device, options, seat: seat, log: log)
        }
        let paths = DRMDevice.cardPaths()
        guard !paths.isEmpty else {
            throw DisplayError(.backendUnavailable, "no DRM device: /dev/dri has no card* nodes")
        }
        var problems: [DisplayError] = []
        for path in paths {
            do {
                let device = try DRMDevice.open(path, seat: seat)
                let resources = try DRMResources(device)
                let output = try DRMOutput.choose(
                    on: device.path, resources: resources, connector: options.connector, mode: options.mode)
                return (device, resources, output, monitor(for: device, log: log))
            } catch {
                problems.append(error)
            }
        }
        // With nothing connected anywhere, --wait-for-display waits on the first card that can
        // set modes.
        if options.waitForDisplay, problems.allSatisfy({ $0.code == .noDisplay || $0.code == .backendUnavailable }) {
            for path in paths {
                guard let device = try? DRMDevice.open(path, seat: seat), (try? DRMResources(device)) != nil else {
                    continue
                }
                return try waitForOutput(on: device, options, seat: seat, log: log)
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

    /// The output on `device`; with `--wait-for-display`, sleeps in `poll()` on the card's
    /// uevents until a display is connected (no timeout, no wake-up meanwhile).
    private static func waitForOutput(
        on device: DRMDevice, _ options: DRMOptions, seat: Seat?, log: (String) -> Void
    ) throws(DisplayError) -> (DRMDevice, DRMResources, DRMOutput, UeventMonitor?) {
        // Watching starts before the first probe, so a display plugged in between is not missed.
        let monitor = monitor(for: device, log: log)
        var logged = false
        while true {
            let resources = try DRMResources(device)
            do {
                let output = try DRMOutput.choose(
                    on: device.path, resources: resources, connector: options.connector, mode: options.mode)
                if logged { log("drm: \(output.connector.name) connected") }
                return (device, resources, output, monitor)
            } catch {
                guard options.waitForDisplay, error.code == .noDisplay, let monitor else { throw error }
                if !logged {
                    log("drm: waiting for a display on \(device.path) (its connectors: \(resources.connectorList))")
                    logged = true
                }
                var descriptors = [pollfd(fd: monitor.fd, events: Int16(POLLIN), revents: 0)]
                // With --seat, a VT switch meanwhile is answered (nothing is shown yet), or the
                // switch would hang until a display came.
                if let seat { descriptors.append(pollfd(fd: seat.fd, events: Int16(POLLIN), revents: 0)) }
                _ = SystemCall.run { poll(&descriptors, nfds_t(descriptors.count), -1) }
                _ = monitor.takeCardChanges()
                if let seat, descriptors.count > 1, descriptors[1].revents != 0 { try seat.settleBeforeUse(log: log) }
            }
        }
    }

    static func monitor(for device: DRMDevice, log: (String) -> Void) -> UeventMonitor? {
        do {
            return try UeventMonitor(devicePath: device.path)
        } catch {
            log("drm: \(error.message); a display plugged in or out is not noticed")
            return nil
        }
    }

    public var displayLink: DisplayLink { link }

    /// The connector driven now, as the kernel names it (`HDMI-A-2`).
    public var connectorName: String { output.connector.name }

    public func frameBuffer() -> PixelBuffer { shadow }

    public func present(_ buffer: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError) {
        precondition(buffer === shadow, "DRMBackend.present: not the buffer handed out by frameBuffer()")
        rows.add(changedRows)
        // Off or unplugged, the CRTC takes no flips; the rows wait in the shadow for the next frame.
        guard isShowing else { return }
        // The rows that differ from the frame on screen: those the front buffer lacks.
        let damage = rows.lacking(inBuffer: front)
        if damage.isEmpty && !commitsWholeFrame {
            // Nothing to show: no copy, no commit, and the buffers stay as they are (the back one
            // keeps lacking what it lacked). The link counts the frame as flipped at its target
            // vblank, so the next one is timed (and --max-fps counted) as after a flip.
            link.frameSkipped()
            return
        }
        let back = 1 - front
        for band in rows.lacking(inBuffer: back) {
            FrameCopier.copy(
                shadow, rows: band, to: buffers[back].surface, rotation: copyRotation, held: buffers[back].held)
        }
        rows.written(buffer: back)
        try commit(back, damage: damage)
    }

    /// Flips to buffer `back`, with `damage` (the frame rows that differ from the frame on screen)
    /// as the kernel's damage clips unless the frame is committed whole.
    private func commit(_ back: Int, damage: RowBands) throws(DisplayError) {
        // Clips are in the framebuffer's coordinates, which a plane's own turn leaves unturned.
        let clips = commitsWholeFrame ? nil : DamageClips(frameRows: damage, frame: size, rotation: copyRotation)
        let result = modesetter.flip(to: buffers[back].framebufferID, damage: clips, events: link.events)
        if case .failure(let code) = result {
            if card.seat != nil, code == .permissionDenied || code == .notPermitted { return seatTookTheDevice() }
            throw DisplayError(.systemCall, "page flip on \(output.connector.name) failed: \(code)", errno: code)
        }
        link.flipQueued()
        front = back
        hasPresented = true
        commitsWholeFrame = false
    }

    /// Sets the output's mode again, showing the buffer last shown (`display on`, a display
    /// plugged in, the seat back); the next frame is committed whole.
    func setModeAgain() throws(DisplayError) {
        try modesetter.setMode(framebuffer: buffers[front].framebufferID)
        commitsWholeFrame = true
    }

    /// The frame rendered in bands straight into the back dumb buffer (`BandedScanout`): only the
    /// rows that buffer lacks, per the renderer's record of it, are drawn and written, once each.
    public func presentInBands(
        at time: FrameTime,
        draw: (
            _ target: AnyObject, _ onScreen: AnyObject?, _ spans: ConstantSpans?,
            _ copy: (PixelBuffer, Range<Int>) -> Void
        ) -> RowBands?
    ) throws(DisplayError) {
        // Off or unplugged, the CRTC takes no flips: nothing is drawn; the renderer's records of
        // the buffers stay true, so the next frame draws what each lacks.
        guard isShowing else { return }
        let back = 1 - front
        let target = buffers[back]
        let rotation = copyRotation
        // After a modeset the frame is committed whole whatever changed: the back buffer is
        // brought up to date even when the frame equals the one on screen.
        let onScreen: AnyObject? = hasPresented && !commitsWholeFrame ? buffers[front] : nil
        let spans = FrameCopier.spans(
            keeping: constantSpans, bandRows: bandRows, surface: target.surface, frameWidth: size.width,
            rotation: rotation)
        constantSpans = spans
        guard
            let damage = draw(
                target, onScreen, spans,
                { frame, rows in
                    FrameCopier.copy(
                        frame, rows: rows, to: target.surface, rotation: rotation, spans: spans, held: target.held)
                })
        else { return }
        if damage.isEmpty && !commitsWholeFrame {
            link.frameSkipped()
            return
        }
        try commit(back, damage: damage)
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
        let isLast = card.release(self)
        // Away on another VT the CRTC is that program's, and Marquee may not touch it.
        guard isSeatActive else { return }
        link.waitForFlip()
        switch saved.restore(on: device) {
        case .success: log("drm: restored \(saved.description)")
        case .failure(let code): log("drm: could not restore \(saved.description): \(code)")
        }
        // After the CRTC, not before: before, Marquee's last frame would be shown unturned for
        // a moment (the kernel commits the property at once, on the framebuffer shown).
        restorePlaneRotation()
        if isLast { device.dropMaster() }
    }
}

extension DRMBackend {
    /// Puts the plane's `rotation` back as found, if Marquee changed it: the console or the
    /// program before would otherwise come back turned.
    fileprivate func restorePlaneRotation() {
        guard let (plane, property) = savedPlaneRotation else { return }
        let result = SystemCall.run {
            drmModeObjectSetProperty(
                device.fd, plane, UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE), property.id, property.initialValue)
        }
        if case .failure(let code) = result { log("drm: could not put plane \(plane)'s rotation back: \(code)") }
    }
}
