/// Pixel formats of the memory the panel scans out. Marquee renders XRGB8888 and converts while
/// copying out; 16-bit formats are for SPI panels driven by fbtft (SPEC §6).
public enum ScanoutFormat: Equatable, Sendable, CustomStringConvertible {
    /// 32 bits, 0xXXRRGGBB (DRM_FORMAT_XRGB8888; fbdev red at bit 16, blue at bit 0).
    case xrgb8888
    /// 32 bits, 0xXXBBGGRR (fbdev red at bit 0, blue at bit 16).
    case xbgr8888
    /// 16 bits, red in the top 5 bits, green 6, blue 5.
    case rgb565
    /// 16 bits, blue in the top 5 bits (panels wired BGR).
    case bgr565

    public var bytesPerPixel: Int {
        switch self {
        case .xrgb8888, .xbgr8888: 4
        case .rgb565, .bgr565: 2
        }
    }

    public var description: String {
        switch self {
        case .xrgb8888: "XRGB8888"
        case .xbgr8888: "XBGR8888"
        case .rgb565: "RGB565"
        case .bgr565: "BGR565"
        }
    }
}

/// One piece of scan-out memory (a dumb buffer, an fbdev page or a buffer in RAM): where it is,
/// how it is laid out and the panel size it holds. It does not own the memory.
public struct ScanoutSurface {
    public var base: UnsafeMutableRawPointer
    public var bytesPerRow: Int
    public var width: Int
    public var height: Int
    public var format: ScanoutFormat

    public init(base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int, format: ScanoutFormat) {
        precondition(bytesPerRow >= width * format.bytesPerPixel, "ScanoutSurface: rows shorter than the width")
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
        self.format = format
    }
}
