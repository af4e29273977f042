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
    @inline(__always) static func decode(_ word: UInt16) -> UInt32 {
        XBGR8888Encoding.decode(RGB565Encoding.decode(word))
    }
}
