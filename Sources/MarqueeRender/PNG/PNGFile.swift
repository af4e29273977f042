import CPNG
import Glibc
import MarqueeCore

/// PNG files through libpng's simplified API (`png_image_*`), which reports errors in a message
/// instead of the longjmp of the classic API (a longjmp across Swift frames is undefined).
public enum PNGFile {
    /// Writes `buffer` as an RGB PNG. The file is written under a temporary name in the same folder
    /// and renamed into place, so a reader never sees a half-written PNG and a failure leaves any
    /// earlier file untouched.
    public static func write(_ buffer: PixelBuffer, to path: String) throws(RenderError) {
        var rgb = [UInt8](repeating: 0, count: buffer.width * buffer.height * 3)
        buffer.withPixels { pixels in
            var out = 0
            for y in 0..<buffer.height {
                for x in 0..<buffer.width {
                    let pixel = pixels[y * buffer.stride + x]
                    rgb[out] = UInt8((pixel >> 16) & 0xFF)
                    rgb[out + 1] = UInt8((pixel >> 8) & 0xFF)
                    rgb[out + 2] = UInt8(pixel & 0xFF)
                    out += 3
                }
            }
        }
        var image = png_image()
        image.version = marquee_png_image_version()
        image.width = png_uint_32(buffer.width)
        image.height = png_uint_32(buffer.height)
        image.format = marquee_png_format_rgb()
        let temporary = "\(path).tmp-\(getpid())"
        // Created afresh, never opened as found: a FIFO or a symlink placed at the temporary name
        // would otherwise block the open or redirect the write (O_EXCL | O_NOFOLLOW refuse both).
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0, let file = fdopen(fd, "wb") else {
            let reason = Errno.current
            if fd >= 0 { close(fd) }
            throw RenderError(.pngWriteFailed, "cannot write \(path): \(reason)")
        }
        errno = 0
        var written = rgb.withUnsafeBytes { bytes in
            png_image_write_to_stdio(&image, file, 0, bytes.baseAddress, png_int_32(buffer.width * 3), nil)
        }
        // libpng's failure leaves the system's reason in errno; fclose's, when only the last
        // buffered bytes failed. Each is captured right after its call.
        let writeFailure = errno != 0 ? Errno.current : nil
        errno = 0
        let closed = fclose(file) == 0
        let closeFailure = errno != 0 ? Errno.current : nil
        if !closed && written != 0 { written = 0 }  // the last buffered bytes failed
        if written == 0 {
            // libpng says only "Write Error" when the disk is full; the system's reason is clearer.
            let system = (writeFailure ?? closeFailure)?.description ?? ""
            let library = message(of: image)
            let reason = system.isEmpty || library.contains(system) ? library : "\(system) (libpng: \(library))"
            png_image_free(&image)
            unlink(temporary)
            throw RenderError(.pngWriteFailed, "cannot write \(path): \(reason)")
        }
        if rename(temporary, path) != 0 {
            let reason = Errno.current
            unlink(temporary)
            throw RenderError(.pngWriteFailed, "cannot write \(path): \(reason)")
        }
    }

    /// The largest width or height `read` accepts: the largest frame (`--size`, `--mode`).
    public static let maximumSide = 16_384

    /// Reads a PNG into a pixel buffer (alpha is dropped, as the screen has none). The file is
    /// opened as image files are (`ImageFile.open`): a FIFO, a device, a socket or a directory is
    /// refused instead of being waited on or read for ever (`marquee compare` exits 2 for them).
    public static func read(_ path: String) throws(RenderError) -> PixelBuffer {
        // No cap on the size: a PNG stored without compression at the largest side is a gigabyte,
        // and libpng reads the file a buffer at a time.
        let (opened, _) = ImageFile.open(path, maximumBytes: Int.max)
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): throw RenderError(.pngReadFailed, "cannot read \(path): \(error.message)")
        }
        guard let file = fdopen(fd, "rb") else {
            let reason = Errno.current
            close(fd)
            throw RenderError(.pngReadFailed, "cannot read \(path): \(reason)")
        }
        defer { fclose(file) }
        var image = png_image()
        image.version = marquee_png_image_version()
        guard png_image_begin_read_from_stdio(&image, file) != 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw RenderError(.pngReadFailed, "cannot read \(path): \(reason)")
        }
        image.format = marquee_png_format_rgba()
        let width = Int(image.width)
        let height = Int(image.height)
        // The header's size comes from the file: a few bytes can claim a million pixels square,
        // whose buffer (4 TB) cannot be allocated. No frame is larger than this.
        guard width <= maximumSide, height <= maximumSide else {
            png_image_free(&image)
            throw RenderError(
                .pngReadFailed, "cannot read \(path): \(width)x\(height) is larger than \(maximumSide)x\(maximumSide)")
        }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, png_int_32(width * 4), nil)
        }
        guard finished != 0, width > 0, height > 0 else {
            let reason = message(of: image)
            png_image_free(&image)
            throw RenderError(.pngReadFailed, "cannot read \(path): \(reason)")
        }
        let buffer = PixelBuffer(width: width, height: height)
        buffer.withPixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    pixels[y * buffer.stride + x] =
                        0xFF00_0000 | UInt32(rgba[i]) << 16 | UInt32(rgba[i + 1]) << 8 | UInt32(rgba[i + 2])
                }
            }
        }
        return buffer
    }

    private static func message(of image: png_image) -> String {
        var copy = image.message
        return withUnsafeBytes(of: &copy) { bytes in
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}
