import MarqueeCore

/// A place frames are shown: the software backend's memory, or (issue 4) a DRM CRTC or an fbdev
/// device. The runtime renders into `frameBuffer()` and then calls `present`; the backend's
/// `displayLink` times the frames.
public protocol DisplayBackend: AnyObject {
    /// "software", "drm", "fbdev" or "window", for logs.
    var name: String { get }
    /// The size frames are rendered at (after rotation, when that lands).
    var size: PixelSize { get }
    var displayLink: DisplayLink { get }
    /// The buffer to render the next frame into.
    func frameBuffer() -> PixelBuffer
    /// Shows the frame rendered into `frameBuffer()`, to be seen at `time.targetTimestamp`.
    /// `changedRows` are the bands of rows the renderer wrote since this buffer's last frame (what
    /// `Renderer.render` returns); the rows outside them are as they were.
    func present(_ buffer: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError)
    /// The frame presented last, as the viewer sees it (what `snapshot` writes).
    func presentedFrame() -> PixelBuffer?
    /// Restores what the display showed before Marquee took it (a no-op in memory).
    func restore()
}

extension DisplayBackend {
    /// Shows a frame that may differ anywhere from the last.
    public func present(_ buffer: PixelBuffer, at time: FrameTime) throws(DisplayError) {
        try present(buffer, changedRows: RowBands(0..<buffer.height), at: time)
    }
}

/// The backends `--backend` names.
public enum BackendKind: String, CaseIterable, Sendable {
    case auto
    case drm
    case fbdev
    case software
    /// A desktop window for previewing decks; never chosen by `auto`.
    case window
}
