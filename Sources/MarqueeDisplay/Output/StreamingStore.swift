import CStream

/// Stores into scan-out memory that bypass the cache when the destination allows it (CStream's
/// header says why). `streaming` is decided once per copy: the addresses must be 16-byte aligned.
enum StreamingStore {
    /// Whether every row of the surface starts on a cache line (so every 16-byte store at a
    /// 16-byte offset is aligned, and the copies' 64-byte lines are whole cache lines). Rows that
    /// only start on 16 bytes (RGB565 at 1080 pixels, 2160 bytes) split each line over two cache
    /// lines, and streaming those halves measured slower than ordinary stores: the quarter turn
    /// to RGB565 at 1080x1920, 0.288 against 0.268 ms (docs/performance.md). There the quarter
    /// turn carries lines between bands instead (`TurnCarry`), and streams the whole cache lines
    /// that two bands' lines make.
    static func allowed(base: UnsafeMutableRawPointer, bytesPerRow: Int) -> Bool {
        Int(bitPattern: base) % 64 == 0 && bytesPerRow % 64 == 0
    }

    /// Eight words at `to`: streamed when `streaming` (`to` then 16-byte aligned), stored otherwise.
    @inline(__always) static func store<Word: SIMDScalar>(
        _ words: SIMD8<Word>, to: UnsafeMutableRawPointer, streaming: Bool
    ) {
        if streaming && Word.self == UInt32.self {
            let wide = unsafeBitCast(words, to: SIMD8<UInt32>.self)
            marquee_stream_u32x4_store(to, wide.lowHalf)
            marquee_stream_u32x4_store(to + 16, wide.highHalf)
        } else if streaming && Word.self == UInt16.self {
            marquee_stream_u16x8_store(to, unsafeBitCast(words, to: SIMD8<UInt16>.self))
        } else {
            to.storeBytes(of: words, as: SIMD8<Word>.self)
        }
    }

    /// Four 32-bit words at `to` (16-byte aligned when `streaming`).
    @inline(__always) static func store(_ words: SIMD4<UInt32>, to: UnsafeMutableRawPointer, streaming: Bool) {
        if streaming {
            marquee_stream_u32x4_store(to, words)
        } else {
            to.storeBytes(of: words, as: SIMD4<UInt32>.self)
        }
    }

    /// `pixels` 32-bit words from `from` to `to` (16-byte aligned), streamed a line (sixteen
    /// words) a step, the last few stored one by one.
    @inline(__always) static func copyRow(from: UnsafeRawPointer, to: UnsafeMutableRawPointer, pixels: Int) {
        let lines = pixels / 16 &* 64
        var offset = 0
        while offset < lines {
            let a = from.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
            let b = from.loadUnaligned(fromByteOffset: offset &+ 16, as: SIMD4<UInt32>.self)
            let c = from.loadUnaligned(fromByteOffset: offset &+ 32, as: SIMD4<UInt32>.self)
            let d = from.loadUnaligned(fromByteOffset: offset &+ 48, as: SIMD4<UInt32>.self)
            marquee_stream_u32x4_store(to + offset, a)
            marquee_stream_u32x4_store(to + (offset &+ 16), b)
            marquee_stream_u32x4_store(to + (offset &+ 32), c)
            marquee_stream_u32x4_store(to + (offset &+ 48), d)
            offset &+= 64
        }
        (to + lines).copyMemory(from: from + lines, byteCount: (pixels &- lines / 4) &* 4)
    }

    /// `pixels` copies of `pixel` at `to` (both on a cache line: a span of `ConstantSpans`),
    /// streamed a line a step.
    @inline(__always) static func fillRow(_ pixel: UInt32, to: UnsafeMutableRawPointer, pixels: Int) {
        let four = SIMD4<UInt32>(repeating: pixel)
        let bytes = pixels &* 4
        var offset = 0
        while offset < bytes {
            marquee_stream_u32x4_store(to + offset, four)
            marquee_stream_u32x4_store(to + (offset &+ 16), four)
            marquee_stream_u32x4_store(to + (offset &+ 32), four)
            marquee_stream_u32x4_store(to + (offset &+ 48), four)
            offset &+= 64
        }
    }

    /// Makes the streamed stores visible before the buffer is handed on.
    @inline(__always) static func fence() { marquee_stream_fence() }
}
