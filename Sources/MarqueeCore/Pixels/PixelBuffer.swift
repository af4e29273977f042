/// The memory of one frame, in XRGB8888 (one 32-bit word per pixel, 0xXXRRGGBB in native byte
/// order), row after row with `stride` pixels per row. It is the plain type through which the
/// renderer and the display backends meet (they do not know each other).
///
/// The one owner of unsafe memory in MarqueeCore: the renderer hands the pointer to pixman, which
/// needs memory that does not move, so an `Array` (which may reallocate) will not do. Reach the
/// pixels through `withPixels`; the memory is freed in `deinit`.
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Pixels per row (≥ width).
    public let stride: Int
    private let storage: UnsafeMutablePointer<UInt32>
    /// For a view of memory owned elsewhere (`init(viewing:)`), what keeps that memory alive;
    /// nil when the buffer owns its storage.
    private let owner: AnyObject?

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "PixelBuffer: empty size \(width)x\(height)")
        self.width = width
        self.height = height
        self.stride = width
        storage = .allocate(capacity: width * height)
        storage.initialize(repeating: 0xFF00_0000, count: width * height)
        owner = nil
    }

    /// A frame-sized view of memory that `owner` keeps alive, for the band renderer: frame row
    /// `y` is at `base + y * stride`, and only the rows the caller backs with memory (a band's)
    /// may be read or written. The memory is not initialized, copied or freed.
    public init(viewing base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int, owner: AnyObject) {
        precondition(width > 0 && height > 0 && stride >= width, "PixelBuffer: bad view \(width)x\(height)")
        self.width = width
        self.height = height
        self.stride = stride
        storage = base
        self.owner = owner
    }

    deinit { if owner == nil { storage.deallocate() } }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var byteCount: Int { stride * height * 4 }

    public func withPixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> Result) rethrows -> Result {
        try body(UnsafeMutableBufferPointer(start: storage, count: stride * height))
    }

    /// The first pixel. Valid for the buffer's lifetime; for C libraries that keep a pointer to
    /// the frame (a pixman image over it), which must also keep the buffer alive.
    public var baseAddress: UnsafeMutablePointer<UInt32> { storage }

    /// The pixel at (x, y) as 0x00RRGGBB.
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(
            x >= 0 && x < width && y >= 0 && y < height, "PixelBuffer.pixel: (\(x), \(y)) outside \(width)x\(height)")
        return storage[y * stride + x] & 0x00FF_FFFF
    }

    /// Copies every pixel of `other` (same size) into this buffer.
    public func copy(from other: PixelBuffer) {
        precondition(other.width == width && other.height == height, "PixelBuffer.copy: size mismatch")
        storage.update(from: other.storage, count: stride * height)
    }
}
