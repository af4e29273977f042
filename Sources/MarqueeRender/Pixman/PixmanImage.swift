import CPixman

/// Owns one pixman image and, unless it wraps memory owned elsewhere, its pixels.
/// Released with `pixman_image_unref` in `deinit`.
public final class PixmanImage {
    public let handle: OpaquePointer
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    private let ownedPixels: UnsafeMutableRawPointer?
    /// The rows `clip(toRows:)` restricts drawing to (nil: the whole image).
    private(set) var clipRows: Range<Int>?

    /// A new image with its own memory (`pixman_image_create_bits`), zeroed unless the caller
    /// paints every pixel; `stride` is rounded up to 4 bytes as pixman requires.
    public init(format: pixman_format_code_t, width: Int, height: Int, zeroed: Bool = true) throws(RenderError) {
        let bitsPerPixel = Int((format.rawValue >> 24) & 0xFF)
        let stride = ((width * bitsPerPixel + 7) / 8 + 3) & ~3
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: max(1, stride * height), alignment: 16)
        if zeroed { pixels.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, stride * height)) }
        guard
            let handle = pixman_image_create_bits(
                format, Int32(width), Int32(height), pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else {
            pixels.deallocate()
            throw RenderError(.imageCreationFailed, "pixman could not create a \(width)x\(height) image")
        }
        self.handle = handle
        self.width = width
        self.height = height
        self.stride = stride
        self.ownedPixels = pixels
    }

    /// Wraps memory that outlives the image (a frame's `PixelBuffer`).
    public init(
        wrapping pixels: UnsafeMutableRawPointer, format: pixman_format_code_t, width: Int, height: Int, stride: Int
    )
        throws(RenderError)
    {
        guard
            let handle = pixman_image_create_bits(
                format, Int32(width), Int32(height), pixels.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { throw RenderError(.imageCreationFailed, "pixman could not wrap a \(width)x\(height) buffer") }
        self.handle = handle
        self.width = width
        self.height = height
        self.stride = stride
        self.ownedPixels = nil
    }

    /// A one-color source image (`pixman_image_create_solid_fill`).
    public init(solid color: pixman_color_t) throws(RenderError) {
        var color = color
        guard let handle = pixman_image_create_solid_fill(&color) else {
            throw RenderError(.imageCreationFailed, "pixman could not create a solid fill")
        }
        self.handle = handle
        self.width = 0
        self.height = 0
        self.stride = 0
        self.ownedPixels = nil
    }

    deinit {
        pixman_image_unref(handle)
        ownedPixels?.deallocate()
    }

    public var byteCount: Int { stride * height }

    public var format: pixman_format_code_t { pixman_image_get_format(handle) }

    /// Restricts pixman's drawing into the image to `rows`, or lifts the restriction (nil). One
    /// box: pixman allocates nothing for it.
    func clip(toRows rows: Range<Int>?) {
        clipRows = rows
        guard let rows else {
            pixman_image_set_clip_region32(handle, nil)
            return
        }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, 0, Int32(rows.lowerBound), UInt32(width), UInt32(rows.count))
        pixman_image_set_clip_region32(handle, &region)
        pixman_region32_fini(&region)
    }

    /// Whether drawing `height` rows from row `y` can change a pixel: false when they miss the
    /// clip's rows. The band renderer visits every item once per band of rows, and a call to
    /// pixman costs a few hundred nanoseconds even when its clip leaves nothing to draw (glyph
    /// by glyph, a card's text is 150 calls): the calls that cannot draw are not made.
    @inline(__always) func reaches(y: Int32, height: Int32) -> Bool {
        guard let rows = clipRows else { return true }
        return Int(y) < rows.upperBound && Int(y) + Int(height) > rows.lowerBound
    }

    /// The image's own pixels (nil for solid fills and wrapped memory).
    public var pixels: UnsafeMutableRawPointer? { ownedPixels }
}

extension pixman_color_t {
    /// pixman colors have 16 bits per channel and are premultiplied by alpha in solid fills.
    /// `opacity` multiplies the color's own alpha.
    init(_ color: MarqueeCoreColor, opacity: Double = 1) {
        func wide(_ byte: UInt8) -> UInt16 { UInt16(byte) * 257 }
        let alpha = UInt16((Double(wide(color.alpha)) * min(max(opacity, 0), 1)).rounded())
        func premultiplied(_ byte: UInt8) -> UInt16 { UInt16((Double(wide(byte)) * Double(alpha) / 65535).rounded()) }
        self.init(
            red: premultiplied(color.red), green: premultiplied(color.green), blue: premultiplied(color.blue),
            alpha: alpha)
    }
}
