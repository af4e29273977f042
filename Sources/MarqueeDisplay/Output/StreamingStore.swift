import CStream

/// Stores into scan-out memory that bypass the cache when the destination allows it (CStream's
/// header says why). `streaming` is decided once per copy: the addresses must be 16-byte aligned.
enum StreamingStore {
    /// Whether every row of the surface starts on a cache line (so every 16-byte store at a
    /// 16-byte offset is aligned, and the copies' 64-byte lines are whole cache lines). Rows that
    /// only start on 16 bytes (RGB565 at 1080 pixels, 2160 bytes) split each line over two cache
    /// lines, and streaming those halves measured slower than ordinary stores: the quarter turn
    /// to RGB565 at 1080x1920, 0.288 against 0.268 ms (docs/performance.md).
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

    /// Makes the streamed stores visible before the buffer is handed on.
    @inline(__always) static func fence() { marquee_stream_fence() }
}
