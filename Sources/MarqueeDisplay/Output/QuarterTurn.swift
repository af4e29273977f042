import MarqueeCore

/// A quarter turn of frame rows into scan-out memory, four by four: four frame rows are read four
/// pixels at a time and transposed in registers, so each read moves 16 bytes instead of one pixel.
/// The transposed blocks of one panel row are gathered in a small staging line (in L1) until they
/// fill 64 bytes (16 frame rows in XRGB8888, 32 in RGB565), and each panel row then gets its
/// whole cache line in four consecutive 16-byte stores: write-combined scan-out memory flushes a
/// full line in one burst, where a line written a quarter at a time between three other rows'
/// quarters may be flushed partially. Rows short of a whole line go by single blocks, and pixels
/// outside whole 4x4 blocks one by one.
enum QuarterTurn {
    /// Bytes of one panel row written in one go: a cache line.
    static let lineBytes = 64

    /// Copies frame rows `rows` (all columns) turned clockwise (`clockwise`) or counter-clockwise,
    /// in `tile`-sized squares (`FrameCopier.tile` says why that size).
    static func copy<Encoding: PixelEncoding>(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, clockwise: Bool, tile: Int,
        as _: Encoding.Type
    ) {
        let source = UnsafePointer(frame.baseAddress)
        let sourceStride = frame.stride
        let frameWidth = frame.width
        let frameHeight = frame.height
        let wordSize = MemoryLayout<Encoding.Word>.size
        // Clockwise, frame (x, y) lands on panel (frameHeight - 1 - y, x); counter-clockwise, on
        // panel (y, frameWidth - 1 - x).
        @inline(__always) func panelAddress(frameX x: Int, frameY y: Int) -> UnsafeMutableRawPointer {
            let (panelX, panelY) = clockwise ? (frameHeight &- 1 &- y, x) : (y, frameWidth &- 1 &- x)
            return surface.base + (panelY &* surface.bytesPerRow &+ panelX &* wordSize)
        }
        @inline(__always) func copyPixel(x: Int, y: Int) {
            panelAddress(frameX: x, frameY: y).storeBytes(
                of: Encoding.encode(source[y * sourceStride + x]), as: Encoding.Word.self)
        }
        @inline(__always) func store(_ pixels: SIMD4<UInt32>, at address: UnsafeMutableRawPointer) {
            address.storeBytes(of: Encoding.encode(pixels), as: SIMD4<Encoding.Word>.self)
        }
        let lineRows = lineBytes / wordSize
        let blockBytes = 4 &* wordSize
        withUnsafeTemporaryAllocation(byteCount: 4 * lineBytes, alignment: lineBytes) { staging in
            let staging = staging.baseAddress!
            var top = rows.lowerBound
            while top < rows.upperBound {
                let bottom = min(top + tile, rows.upperBound)
                let blockBottom = top + (bottom - top) / 4 * 4
                let lineBottom = top + (bottom - top) / lineRows * lineRows
                var left = 0
                while left < frameWidth {
                    let right = min(left + tile, frameWidth)
                    let blockRight = left + (right - left) / 4 * 4
                    // Four frame columns (four panel rows) at a time, down the tile's rows, so
                    // that each panel row segment is written in order.
                    var x = left
                    while x < blockRight {
                        var y = top
                        // Whole lines: `lineRows` frame rows staged, then one line per panel row.
                        while y < lineBottom {
                            var from = source + (y &* sourceStride &+ x)
                            var block = 0
                            while block < lineRows {
                                let row0 = UnsafeRawPointer(from).loadUnaligned(as: SIMD4<UInt32>.self)
                                let row1 = UnsafeRawPointer(from + sourceStride).loadUnaligned(as: SIMD4<UInt32>.self)
                                let row2 = UnsafeRawPointer(from + 2 &* sourceStride).loadUnaligned(
                                    as: SIMD4<UInt32>.self)
                                let row3 = UnsafeRawPointer(from + 3 &* sourceStride).loadUnaligned(
                                    as: SIMD4<UInt32>.self)
                                // Clockwise the panel x falls as the frame row grows: the first
                                // block is the line's last.
                                let at = staging + (clockwise ? (lineRows &- 4 &- block) : block) &* wordSize
                                if clockwise {
                                    store(SIMD4(row3[0], row2[0], row1[0], row0[0]), at: at)
                                    store(SIMD4(row3[1], row2[1], row1[1], row0[1]), at: at + lineBytes)
                                    store(SIMD4(row3[2], row2[2], row1[2], row0[2]), at: at + 2 &* lineBytes)
                                    store(SIMD4(row3[3], row2[3], row1[3], row0[3]), at: at + 3 &* lineBytes)
                                } else {
                                    store(SIMD4(row0[0], row1[0], row2[0], row3[0]), at: at)
                                    store(SIMD4(row0[1], row1[1], row2[1], row3[1]), at: at + lineBytes)
                                    store(SIMD4(row0[2], row1[2], row2[2], row3[2]), at: at + 2 &* lineBytes)
                                    store(SIMD4(row0[3], row1[3], row2[3], row3[3]), at: at + 3 &* lineBytes)
                                }
                                from += 4 &* sourceStride
                                block &+= 4
                            }
                            // The line's first pixel: frame row y + lineRows - 1 clockwise, y
                            // otherwise.
                            let firstRow = clockwise ? y &+ lineRows &- 1 : y
                            for column in 0..<4 {
                                let line = UnsafeRawPointer(staging + column &* lineBytes)
                                let panel = panelAddress(frameX: x &+ column, frameY: firstRow)
                                var offset = 0
                                while offset < lineBytes {
                                    panel.storeBytes(
                                        of: line.load(fromByteOffset: offset, as: SIMD4<UInt32>.self),
                                        toByteOffset: offset, as: SIMD4<UInt32>.self)
                                    offset &+= 16
                                }
                            }
                            y &+= lineRows
                        }
                        // The rest of the tile's whole blocks, one 4x4 block at a time.
                        if y < blockBottom {
                            let firstRow = clockwise ? y &+ 3 : y
                            let panel0 = panelAddress(frameX: x, frameY: firstRow)
                            let panel1 = panelAddress(frameX: x &+ 1, frameY: firstRow)
                            let panel2 = panelAddress(frameX: x &+ 2, frameY: firstRow)
                            let panel3 = panelAddress(frameX: x &+ 3, frameY: firstRow)
                            let step = clockwise ? -blockBytes : blockBytes
                            var offset = 0
                            var from = source + (y &* sourceStride &+ x)
                            while y < blockBottom {
                                let row0 = UnsafeRawPointer(from).loadUnaligned(as: SIMD4<UInt32>.self)
                                let row1 = UnsafeRawPointer(from + sourceStride).loadUnaligned(as: SIMD4<UInt32>.self)
                                let row2 = UnsafeRawPointer(from + 2 &* sourceStride).loadUnaligned(
                                    as: SIMD4<UInt32>.self)
                                let row3 = UnsafeRawPointer(from + 3 &* sourceStride).loadUnaligned(
                                    as: SIMD4<UInt32>.self)
                                if clockwise {
                                    store(SIMD4(row3[0], row2[0], row1[0], row0[0]), at: panel0 + offset)
                                    store(SIMD4(row3[1], row2[1], row1[1], row0[1]), at: panel1 + offset)
                                    store(SIMD4(row3[2], row2[2], row1[2], row0[2]), at: panel2 + offset)
                                    store(SIMD4(row3[3], row2[3], row1[3], row0[3]), at: panel3 + offset)
                                } else {
                                    store(SIMD4(row0[0], row1[0], row2[0], row3[0]), at: panel0 + offset)
                                    store(SIMD4(row0[1], row1[1], row2[1], row3[1]), at: panel1 + offset)
                                    store(SIMD4(row0[2], row1[2], row2[2], row3[2]), at: panel2 + offset)
                                    store(SIMD4(row0[3], row1[3], row2[3], row3[3]), at: panel3 + offset)
                                }
                                offset &+= step
                                from += 4 &* sourceStride
                                y &+= 4
                            }
                        }
                        for y in blockBottom..<bottom {
                            for column in 0..<4 { copyPixel(x: x + column, y: y) }
                        }
                        x += 4
                    }
                    for x in blockRight..<right {
                        for y in top..<bottom { copyPixel(x: x, y: y) }
                    }
                    left = right
                }
                top = bottom
            }
        }
    }
}
