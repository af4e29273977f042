import MarqueeCore

/// Shows frames on an fbdev device (SPEC §6: RGB565 or XRGB8888). As on DRM, frames are rendered
/// into a shadow buffer and only changed rows are copied out: the renderer's bands, and within
/// small ones only the rows whose hash differs (`ScanoutDamage`; for fbtft, whose deferred I/O
/// sends over SPI only the lines from the first page written to the last, that is the
/// difference between a fluid and a stuttering panel). With two pages the copy goes to the hidden one and the device pans to it.
public final class FbdevBackend: DisplayBackend {
    public let name = "fbdev"
    public let size: PixelSize
    public let rotation: Rotation
    public let summary: String
    let device: FramebufferDevice
    private let link: FbdevDisplayLink
    private let shadow: PixelBuffer
    private let damage: ScanoutDamage
    private let console: ConsoleGraphicsMode
    let log: (String) -> Void
    private var visiblePage = 0
    private var restored = false
    private var hasPresented = false
    /// Set by `display off` when the driver powered the panel down; undone at `on` and at exit.
    var panelIsBlanked = false

    public init(
        devicePath: String, rotation: Rotation, maximumFramesPerSecond: Double?, log: @escaping (String) -> Void
    ) throws(DisplayError) {
        self.log = log
        self.rotation = rotation
        device = try FramebufferDevice(path: devicePath)
        let reported = device.timingRefreshRate
        // Without (plausible) timings the timer runs at 60 Hz; its ticks are real either way.
        let pacing = FramePacing(
            refreshRate: FramePacing.plausibleRate(reported) ?? 60, maximumFramesPerSecond: maximumFramesPerSecond)
        link = try FbdevDisplayLink(device: device, pacing: pacing)
        size = rotation.logicalSize(ofPanel: PixelSize(width: device.width, height: device.height))
        shadow = PixelBuffer(width: size.width, height: size.height)
        damage = ScanoutDamage(rows: size.height, buffers: device.pageCount)
        if device.pageCount == 2 { try device.pan(to: 0) }
        console = ConsoleGraphicsMode(log: log)
        let rate = FramePacing.hertz(pacing.refreshRate)
        let timing =
            link.usesVsyncIoctl
            ? "vsync from FBIO_WAITFORVSYNC"
            : "no FBIO_WAITFORVSYNC, a timer at \(rate) Hz (\(reported == nil ? "the driver gives no timings" : "from the mode's pixel clock"))"
        summary =
            "\(devicePath) (\(device.driverName)) \(device.width)x\(device.height) \(device.format), \(device.pageCount == 2 ? "2 pages, panning" : "1 page, drawn in place"), \(timing)"
        log("fbdev: \(summary)")
        if rotation != .none {
            log("fbdev: rotating by \(rotation.rawValue)° while copying; frames are \(size.width)x\(size.height)")
        }
    }

    deinit { restore() }

    public var displayLink: DisplayLink { link }

    public func frameBuffer() -> PixelBuffer { shadow }

    public func present(_ buffer: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError) {
        precondition(buffer === shadow, "FbdevBackend.present: not the buffer handed out by frameBuffer()")
        let target = device.pageCount == 2 ? 1 - visiblePage : 0
        // The renderer's bands, hashed row by row when they are a small part of the screen (a
        // marquee's band holds rows its text does not reach, about half: not sent over SPI),
        // marked changed unread when they are most of it (a scroll, where every row differs).
        damage.measure(shadow, bands: changedRows)
        damage.copyChangedRows(of: shadow, into: device.page(target), buffer: target, rotation: rotation)
        if device.pageCount == 2 {
            try device.pan(to: target)
            visiblePage = target
        }
        hasPresented = true
    }

    /// What the panel shows, read back from the visible page (in the panel's format, so a 16-bit
    /// panel's snapshot shows its 16-bit colours).
    public func presentedFrame() -> PixelBuffer? {
        hasPresented ? FrameCopier.read(device.page(visiblePage)) : nil
    }

    public func restore() {
        guard !restored else { return }
        restored = true
        // A console left on a powered-down panel would be invisible.
        if panelIsBlanked, case .success = device.setBlanked(false) { panelIsBlanked = false }
        device.restorePanning()
        console.restore()
        log("fbdev: restored the console and the panning of \(device.path)")
    }
}
