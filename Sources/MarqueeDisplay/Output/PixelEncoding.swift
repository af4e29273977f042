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
    /// In 16-bit lanes, as eight pixels are below.
    @inline(__always) static func encode(_ xrgb: SIMD4<UInt32>) -> SIMD4<UInt16> {
        let halves = unsafeBitCast(xrgb, to: SIMD8<UInt16>.self)
        let greenBlue = halves.evenHalf, red = halves.oddHalf
        return ((red &<< 8) & 0xF800) | ((greenBlue &>> 5) & 0x07E0) | ((greenBlue &>> 3) & 0x001F)
    }
    /// In 16-bit lanes: each pixel's low half is green and blue, its high half red, so no 32-to-16
    /// narrowing is needed (SSE2 has no unsigned one; LLVM's lowering of `truncatingIfNeeded`
    /// took 1.2 ms a 1080p frame where this takes 0.83). Little-endian lane order, as on x86 and
    /// ARM Linux.
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt16> {
        let halves = unsafeBitCast(xrgb, to: SIMD16<UInt16>.self)
        let greenBlue = halves.evenHalf, red = halves.oddHalf
        return ((red &<< 8) & 0xF800) | ((greenBlue &>> 5) & 0x07E0) | ((greenBlue &>> 3) & 0x001F)
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
        RGB565Encoding.encode(XBGR8888Encoding.encode(xrgb))
    }
    @inline(__always) static func encode(_ xrgb: SIMD8<UInt32>) -> SIMD8<UInt16> {
        let halves = unsafeBitCast(xrgb, to: SIMD16<UInt16>.self)
        let greenBlue = halves.evenHalf, red = halves.oddHalf
        return ((greenBlue &<< 8) & 0xF800) | ((greenBlue &>> 5) & 0x07E0) | ((red &>> 3) & 0x001F)
    }
    @inline(__always) static func decode(_ word: UInt16) -> UInt32 {
        XBGR8888Encoding.decode(RGB565Encoding.decode(word))
    }
}
