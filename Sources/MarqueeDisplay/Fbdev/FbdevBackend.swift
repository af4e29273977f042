import MarqueeCore

/// Shows frames on an fbdev device (SPEC §6: RGB565 or XRGB8888). As on DRM, frames are rendered
/// into a shadow buffer and only the bands of rows the renderer changed are copied out
/// (`ScanoutRows`; for fbtft, whose deferred I/O sends just the touched pages over SPI, that is
/// the difference between a fluid and a stuttering panel). With two pages the copy goes to the hidden one and the device pans to it.
public final class FbdevBackend: DisplayBackend {
    public let name = "fbdev"
    public let size: PixelSize
    public let rotation: Rotation
    public let summary: String
    let device: FramebufferDevice
    private let link: FbdevDisplayLink
    private let shadow: PixelBuffer
    private var rows: ScanoutRows
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
        rows = ScanoutRows(rows: size.height, buffers: device.pageCount)
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
        // The bands the page lacks, each copied (turned, converted) on its own; no row is read
        // back or hashed: the renderer's bands are already only the places that changed.
        rows.add(changedRows)
        for band in rows.lacking(inBuffer: target) {
            FrameCopier.copy(shadow, rows: band, to: device.page(target), rotation: rotation)
        }
        rows.written(buffer: target)
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
