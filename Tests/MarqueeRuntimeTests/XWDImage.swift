import MarqueeCore

/// Reads what `xwd` writes (X Window Dump, version 7) into a frame, for comparing a window's
/// real pixels with a snapshot: only the form a 24-bit TrueColor screen gives (ZPixmap, 32 bits
/// a pixel, masks ff0000, ff00 and ff), which is what Xvfb's `-screen 0 WxHx24` has.
enum XWDImage {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static func decode(_ bytes: [UInt8]) throws -> PixelBuffer {
        // The header's fields are 32-bit big-endian numbers, whatever the machine.
        func field(_ index: Int) -> Int {
            let at = index * 4
            guard at + 4 <= bytes.count else { return -1 }
            return bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        let headerSize = field(0)
        let (format, width, height) = (field(2), field(4), field(5))
        let (byteOrder, bitsPerPixel, bytesPerLine) = (field(7), field(11), field(12))
        let masks = (field(14), field(15), field(16))
        let colors = field(19)
        guard field(1) == 7, format == 2, bitsPerPixel == 32, masks == (0xFF0000, 0xFF00, 0xFF) else {
            throw Problem(
                description:
                    "not a 32-bit TrueColor ZPixmap dump (version \(field(1)), format \(format), \(bitsPerPixel) bits)")
        }
        let start = headerSize + colors * 12
        guard width > 0, height > 0, start + height * bytesPerLine <= bytes.count else {
            throw Problem(description: "the dump is cut short")
        }
        let frame = PixelBuffer(width: width, height: height)
        frame.withPixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let at = start + y * bytesPerLine + x * 4
                    let b = bytes[at..<at + 4].map(UInt32.init)
                    // byte order 0: least significant byte first.
                    let value = byteOrder == 0 ? b[0] | b[1] << 8 | b[2] << 16 : b[3] | b[2] << 8 | b[1] << 16
                    pixels[y * frame.stride + x] = 0xFF00_0000 | value
                }
            }
        }
        return frame
    }
}
