import CPack565

/// How one XRGB8888 pixel is stored in a scan-out format, and read back for snapshots. The copy
/// loops are generic over this, so each format gets its own specialized loop.
protocol PixelEncoding {
    associatedtype Word: FixedWidthInteger & SIMDScalar
    @inline(__always) static func encode(_ xrgb: UInt32) -> Word
    /// Four pixels at once (the quarter-turn copy moves four at a time).
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<Word>
    /// Eight pixels at once (unturned rows): two SSE2 or NEON registers in, one out for 16 bits.
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<Word>
    @inline(__always) static func decode(_ word: Word) -> UInt32
    /// `count` pixels of one row from `source`, encoded into `destination` (unturned rows).
    @inline(__always) static func encodeRow(
        from source: UnsafePointer<UInt32>, to destination: UnsafeMutablePointer<Word>, count: Int)
}

extension PixelEncoding {
    /// Eight pixels a step in SIMD registers (two SSE2 or NEON registers), the rest one by one.
    @inline(__always) static func encodeRow(
        from source: UnsafePointer<UInt32>, to destination: UnsafeMutablePointer<Word>, count: Int
    ) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(destination)
        let wordSize = MemoryLayout<Word>.size
        var x = 0
        while x &+ 8 <= count {
            let eight = from.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
            to.storeBytes(of: encode(eight), toByteOffset: x &* wordSize, as: SIMD8<Word>.self)
            x &+= 8
        }
        while x < count {
            destination[x] = encode(source[x])
            x &+= 1
        }
    }
}

/// What the processor offers the conversions beyond the build's baseline, asked once.
enum ProcessorFeatures {
    /// AVX2 (x86-64 only): the 16-bit row conversion then takes sixteen pixels a step.
    static let avx2: Int32 = marquee_pack565_avx2_usable()
}

enum XRGB8888Encoding: PixelEncoding {
    @inline(__always) static func encode(_ xrgb: UInt32) -> UInt32 { xrgb }
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<UInt32> { xrgb }
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt32> { xrgb }
    @inline(__always) static func decode(_ word: UInt32) -> UInt32 { word | 0xFF00_0000 }
}

enum XBGR8888Encoding: PixelEncoding {
    @inline(__always) static func encode(_ xrgb: UInt32) -> UInt32 {
        (xrgb & 0xFF00_FF00) | ((xrgb >> 16) & 0xFF) | ((xrgb & 0xFF) << 16)
    }
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<UInt32> {
        (xrgb & 0xFF00_FF00) | ((xrgb &>> 16) & 0xFF) | ((xrgb & 0xFF) &<< 16)
    }
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt32> {
        (xrgb & 0xFF00_FF00) | ((xrgb &>> 16) & 0xFF) | ((xrgb & 0xFF) &<< 16)
    }
    @inline(__always) static func decode(_ word: UInt32) -> UInt32 { encode(word) | 0xFF00_0000 }
}

/// Truncates to 5-6-5 bits. Ordered dithering would hide banding in slow gradients; cards are flat
/// colours, so it is left out (docs/architecture.md).
enum RGB565Encoding: PixelEncoding {
    @inline(__always) static func encode(_ xrgb: UInt32) -> UInt16 {
        UInt16(truncatingIfNeeded: ((xrgb >> 8) & 0xF800) | ((xrgb >> 5) & 0x07E0) | ((xrgb >> 3) & 0x001F))
    }
    /// Through the eight-pixel conversion, its upper half unused.
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<UInt16> {
        marquee_pack565(xrgb, xrgb, 0).lowHalf
    }
    /// CPack565's multiply-add for red and blue (SSE2; NEON's narrowing inserts on arm64): thirteen
    /// instructions for eight pixels where Swift's shifts and masks in 16-bit lanes took sixteen
    /// (and narrowing 32-bit lanes with `truncatingIfNeeded` far more: SSE2 has no unsigned pack).
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt16> {
        marquee_pack565(xrgb.lowHalf, xrgb.highHalf, 0)
    }
    /// CPack565's row: sixteen pixels a step with AVX2 where the processor has it (1.1 frame copies
    /// to 0.6 for a 1080p frame's conversion, docs/performance.md), eight a step otherwise.
    @inline(__always) static func encodeRow(
        from source: UnsafePointer<UInt32>, to destination: UnsafeMutablePointer<UInt16>, count: Int
    ) {
        marquee_pack565_row(source, destination, count, 0, ProcessorFeatures.avx2)
    }
    @inline(__always) static func decode(_ word: UInt16) -> UInt32 {
        let value = UInt32(word)
        let red = value >> 11, green = (value >> 5) & 0x3F, blue = value & 0x1F
        // Spread the top bits into the low ones so that full intensity reads back as 255.
        let red8 = (red << 3) | (red >> 2), green8 = (green << 2) | (green >> 4), blue8 = (blue << 3) | (blue >> 2)
        return 0xFF00_0000 | (red8 << 16) | (green8 << 8) | blue8
    }
}

enum BGR565Encoding: PixelEncoding {
    @inline(__always) static func encode(_ xrgb: UInt32) -> UInt16 {
        RGB565Encoding.encode(XBGR8888Encoding.encode(xrgb))
    }
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<UInt16> {
        marquee_pack565(xrgb, xrgb, 1).lowHalf
    }
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt16> {
        marquee_pack565(xrgb.lowHalf, xrgb.highHalf, 1)
    }
    @inline(__always) static func encodeRow(
        from source: UnsafePointer<UInt32>, to destination: UnsafeMutablePointer<UInt16>, count: Int
    ) {
        marquee_pack565_row(source, destination, count, 1, ProcessorFeatures.avx2)
    }
    @inline(__always) static func decode(_ word: UInt16) -> UInt32 {
        XBGR8888Encoding.decode(RGB565Encoding.decode(word))
    }
}
