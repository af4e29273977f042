import Foundation
import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Real PNG and JPEG files for the image tests, made at test time: pixels computed here, encoded by
/// ImageMagick's `convert` (an encoder independent of the decoders under test), EXIF segments
/// written byte by byte, broken files cut or patched from good ones.
final class ImageTestFiles {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "marquee-images-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func path(_ name: String) -> String { folder + "/" + name }

    /// Straight (not premultiplied) RGBA pixels, row by row.
    struct Picture {
        var width: Int
        var height: Int
        var rgba: [UInt8]

        init(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) {
            self.width = width
            self.height = height
            rgba = []
            rgba.reserveCapacity(width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b, a) = color(x, y)
                    rgba += [r, g, b, a]
                }
            }
        }

        func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
            let i = (y * width + x) * 4
            return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
        }
    }

    /// Encodes with `convert`; `options` go before the output name (e.g. JPEG quality).
    @discardableResult
    func write(_ picture: Picture, as name: String, alpha: Bool = false, options: [String] = []) throws -> String {
        let raw = path(name + ".raw")
        let bytes: [UInt8] =
            alpha ? picture.rgba : stride(from: 0, to: picture.rgba.count, by: 4).flatMap { picture.rgba[$0..<$0 + 3] }
        try Data(bytes).write(to: URL(fileURLWithPath: raw))
        let output = path(name)
        _ = try ExternalTool.run(
            "/usr/bin/convert",
            ["-size", "\(picture.width)x\(picture.height)", "-depth", "8", (alpha ? "rgba:" : "rgb:") + raw, "-strip"]
                + options + [output], package: "imagemagick")
        try FileManager.default.removeItem(atPath: raw)
        return output
    }

    /// A JPEG as exact as JPEG gets: quality 100, no chroma subsampling.
    @discardableResult
    func writeJPEG(_ picture: Picture, as name: String) throws -> String {
        try write(picture, as: name, options: ["-quality", "100", "-sampling-factor", "1x1"])
    }

    func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name)))) }

    func save(_ bytes: [UInt8], as name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// `jpeg` with an APP1 EXIF segment (big-endian TIFF, one IFD with the orientation tag)
    /// inserted after its start-of-image marker.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: Int, littleEndian: Bool = false) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] {
            littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
        }
        func u32(_ value: Int) -> [UInt8] {
            littleEndian ? u16(value & 0xFFFF) + u16(value >> 16) : u16(value >> 16) + u16(value & 0xFFFF)
        }
        var tiff: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        // two entries: an unrelated tag first (ImageDescription offset), then the orientation
        tiff += u16(2)
        tiff += u16(0x010E) + u16(2) + u32(4) + u32(0)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)
        let payload: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// A PNG of `width` x `height` that is only a header and a few bytes of garbage data: what a
    /// hostile or broken file declaring a giant picture looks like.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        let header = be32(width) + be32(height) + [8, 6, 0, 0, 0]  // 8-bit RGBA
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", [0x78, 0x9C, 0x01, 0x02, 0x03]) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `jpeg` with its frame header (SOF0) claiming `width` x `height`.
    static func withDeclaredSize(_ jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        var at = 2
        while at + 9 < bytes.count {
            let marker = bytes[at + 1]
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if marker == 0xC0 || marker == 0xC2 {
                bytes[at + 5] = UInt8(height >> 8)
                bytes[at + 6] = UInt8(height & 0xFF)
                bytes[at + 7] = UInt8(width >> 8)
                bytes[at + 8] = UInt8(width & 0xFF)
                return bytes
            }
            at += 2 + length
        }
        XCTFail("no SOF0 in the JPEG")
        return bytes
    }
}

extension PixmanImage {
    /// The premultiplied pixel at (x, y) as (a, r, g, b).
    func argb(_ x: Int, _ y: Int) -> (a: Int, r: Int, g: Int, b: Int) {
        let pixel = (pixels! + y * stride).assumingMemoryBound(to: UInt32.self)[x]
        return (Int(pixel >> 24), Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }

    /// The image laid over black as an XRGB frame (for comparisons and `*_err.png`).
    func frame() -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                buffer.baseAddress[y * buffer.stride + x] =
                    0xFF00_0000 | ((pixels! + y * stride).assumingMemoryBound(to: UInt32.self)[x] & 0xFFFFFF)
            }
        }
        return buffer
    }
}
