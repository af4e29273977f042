import MarqueeCore

/// Renders into memory: no device, no GPU. Two buffers: one being drawn, one last presented
/// (what `snapshot` reads), swapped on present, as a double-buffered display would. With
/// `--rotate`, the presented frame is the drawn one turned as a panel would show it.
public final class SoftwareBackend: DisplayBackend {
    public let name = "software"
    /// The logical size frames are rendered at.
    public let size: PixelSize
    /// The size of the (imaginary) panel: `--size`.
    public let panelSize: PixelSize
    public let rotation: Rotation
    private let link: SoftwareDisplayLink
    private var drawing: PixelBuffer
    private var shown: PixelBuffer?
    private var spare: PixelBuffer?

    public init(
        size panelSize: PixelSize, refreshRate: Double, realtime: Bool, maximumFramesPerSecond: Double? = nil,
        rotation: Rotation = .none
    ) {
        self.panelSize = panelSize
        self.rotation = rotation
        size = rotation.logicalSize(ofPanel: panelSize)
        link = SoftwareDisplayLink(
            refreshRate: refreshRate, realtime: realtime, maximumFramesPerSecond: maximumFramesPerSecond)
        drawing = PixelBuffer(width: size.width, height: size.height)
    }

    public var displayLink: DisplayLink { link }

    public func frameBuffer() -> PixelBuffer { drawing }

    public func present(_ buffer: PixelBuffer, changedRows: RowBands, at time: FrameTime) throws(DisplayError) {
        precondition(buffer === drawing, "SoftwareBackend.present: not the buffer handed out by frameBuffer()")
        guard rotation == .none else {
            // One drawing buffer, turned into the panel: only its changed rows need turning again.
            let bands = shown == nil ? RowBands(0..<drawing.height) : changedRows
            let panel = shown ?? PixelBuffer(width: panelSize.width, height: panelSize.height)
            for rows in bands { FrameCopier.copy(drawing, rows: rows, to: panel.surface, rotation: rotation) }
            shown = panel
            return
        }
        let previous = shown
        shown = drawing
        drawing = previous ?? spare ?? PixelBuffer(width: size.width, height: size.height)
        spare = nil
    }

    public func presentedFrame() -> PixelBuffer? { shown }

    public func restore() {}
}

extension PixelBuffer {
    /// The buffer as scan-out memory in XRGB8888 (for copies that turn or convert a frame).
    var surface: ScanoutSurface {
        ScanoutSurface(
            base: UnsafeMutableRawPointer(baseAddress), bytesPerRow: stride * 4, width: width, height: height,
            format: .xrgb8888)
    }
}
