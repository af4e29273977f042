import CJPEG
import CPNG
import CPixman

/// Decodes PNG and JPEG files into upright, premultiplied a8r8g8b8 pixman images. The format is
/// told by the file's first bytes, never by its name. The picture's size is read from the header
/// and checked against the pixel limit before any pixel memory is allocated, so a small file
/// declaring 100,000 x 100,000 pixels costs nothing.
public enum ImageDecoder {
    /// The size of the upright picture a file holds, from its header only.
    public static func size(of bytes: [UInt8], maximumPixels: Int) throws(ImageError) -> (width: Int, height: Int) {
        if isPNG(bytes) {
            var image = png_image()
            image.version = marquee_png_image_version()
            try beginPNG(&image, bytes)
            defer { png_image_free(&image) }
            let size = (Int(image.width), Int(image.height))
            try checkPixels(size.0, size.1, maximumPixels)
            return size
        }
        if isJPEG(bytes) {
            let decoder = try JPEGDecoder(bytes)
            try checkPixels(decoder.width, decoder.height, maximumPixels)
            let orientation = ExifOrientation.of(jpeg: bytes)
            return orientation.swapsAxes ? (decoder.height, decoder.width) : (decoder.width, decoder.height)
        }
        throw ImageError("not a PNG or JPEG file")
    }

    /// Decodes a whole file. `fits` are the sizes the picture will be drawn at (upright pixels):
    /// a JPEG much larger than all of them is decoded at 1/2, 1/4 or 1/8 of its size by
    /// libjpeg's DCT scaling, still at least as large as the largest of them (so the scaling
    /// after it still only shrinks), which saves most of the memory and time.
    public static func decode(
        _ bytes: [UInt8], maximumPixels: Int, drawnAt fits: [(width: Int, height: Int)] = []
    ) throws(ImageError) -> PixmanImage {
        if isPNG(bytes) { return try decodePNG(bytes, maximumPixels: maximumPixels) }
        if isJPEG(bytes) { return try decodeJPEG(bytes, maximumPixels: maximumPixels, fits: fits) }
        throw ImageError("not a PNG or JPEG file")
    }

    /// The longest side decoded.
    public static let maximumSide = 32_000

    static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.starts(with: [0xFF, 0xD8, 0xFF]) }

    private static func checkPixels(_ width: Int, _ height: Int, _ maximumPixels: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw ImageError("the header declares an empty picture") }
        // Multiplied as 64-bit values from 32-bit header fields: no overflow.
        guard width * height <= maximumPixels else {
            throw ImageError(
                "\(width)x\(height) is \(width * height) pixels, more than the \(maximumPixels) of --image-max-pixels")
        }
        // pixman's coordinates are 16.16 fixed point: a side beyond 32767 pixels cannot be scaled.
        guard width <= maximumSide, height <= maximumSide else {
            throw ImageError("\(width)x\(height) has a side longer than the \(maximumSide) pixels an image may have")
        }
    }

    // MARK: PNG

    /// libpng's simplified API (`png_image_*`) catches its own errors with setjmp inside libpng
    /// and returns 0 with a message, so no longjmp ever reaches Swift.
    private static func beginPNG(_ image: inout png_image, _ bytes: [UInt8]) throws(ImageError) {
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw ImageError("corrupt PNG: \(reason)")
        }
    }

    private static func decodePNG(_ bytes: [UInt8], maximumPixels: Int) throws(ImageError) -> PixmanImage {
        var image = png_image()
        image.version = marquee_png_image_version()
        try beginPNG(&image, bytes)
        let width = Int(image.width)
        let height = Int(image.height)
        do throws(ImageError) {
            try checkPixels(width, height, maximumPixels)
        } catch {
            png_image_free(&image)
            throw error
        }
        image.format = marquee_png_format_bgra()
        let result = try makeImage(width, height)
        let finished = bytes.withUnsafeBytes { _ in
            png_image_finish_read(&image, nil, result.pixels, png_int_32(result.stride), nil)
        }
        guard finished != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw ImageError("corrupt PNG: \(reason)")
        }
        premultiply(result)
        return result
    }

    private static func message(of image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { bytes in
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }

    /// libpng gives straight alpha; pixman composites premultiplied.
    private static func premultiply(_ image: PixmanImage) {
        guard let base = image.pixels else { return }
        for y in 0..<image.height {
            let row = (base + y * image.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<image.width {
                let pixel = row[x]
                let alpha = pixel >> 24
                if alpha == 255 { continue }
                func scaled(_ shift: UInt32) -> UInt32 { ((((pixel >> shift) & 0xFF) * alpha + 127) / 255) << shift }
                row[x] = alpha << 24 | scaled(16) | scaled(8) | scaled(0)
            }
        }
    }

    private static func makeImage(_ width: Int, _ height: Int) throws(ImageError) -> PixmanImage {
        do {
            return try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height, zeroed: false)
        } catch {
            throw ImageError(error.message)
        }
    }

    // MARK: JPEG

    private static func decodeJPEG(
        _ bytes: [UInt8], maximumPixels: Int, fits: [(width: Int, height: Int)]
    ) throws(ImageError) -> PixmanImage {
        let decoder = try JPEGDecoder(bytes)
        try checkPixels(decoder.width, decoder.height, maximumPixels)
        let orientation = ExifOrientation.of(jpeg: bytes)
        let upright =
            orientation.swapsAxes ? (decoder.height, decoder.width) : (decoder.width, decoder.height)
        let denominator = dctDenominator(picture: upright, fits: fits)
        let (width, height) = try decoder.prepare(denominator: denominator)
        try decoder.limitMemory(pictureBytes: width * height * 4, maximumPixels: maximumPixels)
        let stored = try makeImage(width, height)
        try decoder.decode(into: stored)
        return orientation == .normal ? stored : try turn(stored, orientation)
    }

    /// The largest of 1, 2, 4, 8 that keeps the decoded picture at least as large as every size
    /// it will be drawn at (1 when none is given).
    static func dctDenominator(picture: (Int, Int), fits: [(width: Int, height: Int)]) -> Int {
        guard !fits.isEmpty else { return 1 }
        var needed = (width: 1, height: 1)
        for fit in fits {
            needed.width = max(needed.width, fit.width)
            needed.height = max(needed.height, fit.height)
        }
        for denominator in [8, 4, 2] {
            // libjpeg rounds scaled sizes up; rounding down here keeps the guarantee.
            if picture.0 / denominator >= needed.width, picture.1 / denominator >= needed.height { return denominator }
        }
        return 1
    }

    /// A copy of `stored` turned upright.
    private static func turn(_ stored: PixmanImage, _ orientation: ExifOrientation) throws(ImageError) -> PixmanImage {
        let width = orientation.swapsAxes ? stored.height : stored.width
        let height = orientation.swapsAxes ? stored.width : stored.height
        let upright = try makeImage(width, height)
        guard let source = stored.pixels, let target = upright.pixels else { return upright }
        for y in 0..<height {
            let row = (target + y * upright.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let from = orientation.storedPixel(x: x, y: y, width: stored.width, height: stored.height)
                row[x] = (source + from.y * stored.stride).assumingMemoryBound(to: UInt32.self)[from.x]
            }
        }
        return upright
    }
}

/// One libjpeg decompressor over a file's bytes (which it reads in place, so they are kept).
/// Every libjpeg call happens in the C shim, which catches libjpeg's fatal errors with its own
/// setjmp and returns an error code.
private final class JPEGDecoder {
    private let handle: UnsafeMutablePointer<marquee_jpeg>
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    let width: Int
    let height: Int

    init(_ source: [UInt8]) throws(ImageError) {
        bytes = .allocate(capacity: source.count)
        _ = bytes.initialize(from: source)
        guard let handle = marquee_jpeg_open(bytes.baseAddress, UInt(bytes.count)) else {
            bytes.deallocate()
            throw ImageError("out of memory")
        }
        if handle.pointee.message.0 != 0 {
            let reason = String(cString: marquee_jpeg_message(handle))
            marquee_jpeg_close(handle)
            bytes.deallocate()
            throw ImageError("corrupt JPEG: \(reason)")
        }
        self.handle = handle
        width = Int(marquee_jpeg_width(handle))
        height = Int(marquee_jpeg_height(handle))
    }

    deinit {
        marquee_jpeg_close(handle)
        bytes.deallocate()
    }

    func prepare(denominator: Int) throws(ImageError) -> (Int, Int) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard marquee_jpeg_prepare(handle, UInt32(denominator), &width, &height) == 0 else { throw failure() }
        return (Int(width), Int(height))
    }

    /// A JPEG in several scans (progressive, or baseline with its components in separate scans)
    /// is decoded through coefficient buffers for the whole picture at full size, whatever the
    /// DCT scaling: 2 to 8 bytes a pixel besides the decoded picture (`pictureBytes`). Together
    /// they may take what one original may, 4 bytes times `maximumPixels`; a file that needs more
    /// fails here, before anything is allocated, and libjpeg is held to the rest of the budget
    /// (`max_memory_to_use`, which libjpeg-turbo's memory manager enforces by failing), so the
    /// bound holds even where this estimate were short.
    func limitMemory(pictureBytes: Int, maximumPixels: Int) throws(ImageError) {
        let budget = 4 * UInt64(max(maximumPixels, 0))
        let coefficients = marquee_jpeg_coefficient_bytes(handle)
        let needed = coefficients + UInt64(pictureBytes)
        guard coefficients == 0 || needed <= budget else {
            func mebibytes(_ bytes: UInt64) -> String {
                let tenths = (bytes * 10 + 524_288) / 1_048_576
                return "\(tenths / 10).\(tenths % 10) MiB"
            }
            throw ImageError(
                "a \(width)x\(height) JPEG in several scans (progressive) needs \(mebibytes(needed)) to decode "
                    + "(\(mebibytes(coefficients)) of DCT coefficients and the picture), more than the "
                    + "\(mebibytes(budget)) of 4 bytes x --image-max-pixels")
        }
        marquee_jpeg_limit_memory(handle, budget > UInt64(pictureBytes) ? budget - UInt64(pictureBytes) : 0)
    }

    func decode(into image: PixmanImage) throws(ImageError) {
        guard marquee_jpeg_decode(handle, image.pixels?.assumingMemoryBound(to: UInt8.self), image.stride) == 0
        else { throw failure() }
    }

    /// Marquee's own limits (scans, memory) give their whole message; libjpeg's are prefixed.
    private func failure() -> ImageError {
        let message = String(cString: marquee_jpeg_message(handle))
        return ImageError(handle.pointee.refused != 0 ? message : "corrupt JPEG: \(message)")
    }
}
