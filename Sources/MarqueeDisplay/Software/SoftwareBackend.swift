import MarqueeCore

/// Renders into memory: no device, no GPU. Two buffers: one being drawn, one last presented
/// (what `snapshot` reads), swapped on present, as a double-buffered display would.
public final class SoftwareBackend: DisplayBackend {
    public let name = "software"
    public let size: PixelSize
    private let link: SoftwareDisplayLink
    private var drawing: PixelBuffer
    private var shown: PixelBuffer?
    private var spare: PixelBuffer?

    public init(size: PixelSize, refreshRate: Double, realtime: Bool, maximumFramesPerSecond: Double? = nil) {
        self.size = size
        link = SoftwareDisplayLink(
            refreshRate: refreshRate, realtime: realtime, maximumFramesPerSecond: maximumFramesPerSecond)
        drawing = PixelBuffer(width: size.width, height: size.height)
    }

    public var displayLink: DisplayLink { link }

    public func frameBuffer() -> PixelBuffer { drawing }

    public func present(_ buffer: PixelBuffer, at time: FrameTime) throws(DisplayError) {
        precondition(buffer === drawing, "SoftwareBackend.present: not the buffer handed out by frameBuffer()")
        let previous = shown
        shown = drawing
        drawing = previous ?? spare ?? PixelBuffer(width: size.width, height: size.height)
        spare = nil
    }

    public func presentedFrame() -> PixelBuffer? { shown }

    public func restore() {}
}
