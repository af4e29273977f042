import MarqueeCore

/// Copies a rendered (logical) frame into scan-out memory, turning it by `--rotate` and converting
/// it to the panel's format on the way. Only the given logical rows are copied: scan-out memory is
/// often write-combined (DRM dumb buffers) or sent over a slow bus (fbtft's deferred I/O), so
/// every byte not written counts. The source is only read, the destination only written.
///
/// `carry`, for copiers that write a frame's bands one call each: quarter turns into 16-bit rows
/// that do not start on cache lines hold part of each band's lines back until the next band
/// (`TurnCarry`), and the caller calls its `finish()` before the buffer is shown.
public enum FrameCopier {
    static func copy(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation, carry: TurnCarry? = nil
    ) {
        let panel = rotation.panelSize(ofLogical: frame.size)
        precondition(
            surface.width == panel.width && surface.height == panel.height,
            "FrameCopier: a \(frame.width)x\(frame.height) frame turned \(rotation.rawValue)° does not fit \(surface.width)x\(surface.height)"
        )
        let rows = rows.clamped(to: 0..<frame.height)
        guard !rows.isEmpty else { return }
        // Only quarter turns carry; anything held before is finished first.
        if !rotation.swapsAxes { carry?.finish() }
        switch surface.format {
        case .xrgb8888:
            copy(frame, rows: rows, to: surface, rotation: rotation, carry: carry, as: XRGB8888Encoding.self)
        case .xbgr8888:
            copy(frame, rows: rows, to: surface, rotation: rotation, carry: carry, as: XBGR8888Encoding.self)
        case .rgb565: copy(frame, rows: rows, to: surface, rotation: rotation, carry: carry, as: RGB565Encoding.self)
        case .bgr565: copy(frame, rows: rows, to: surface, rotation: rotation, carry: carry, as: BGR565Encoding.self)
        }
    }

    private static func copy<Encoding: PixelEncoding>(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation, carry: TurnCarry?,
        as _: Encoding.Type
    ) {
        let source = UnsafePointer(frame.baseAddress)
        let sourceStride = frame.stride
        let width = surface.width, height = surface.height
        func panelRow(_ y: Int) -> UnsafeMutablePointer<Encoding.Word> {
            (surface.base + y * surface.bytesPerRow).assumingMemoryBound(to: Encoding.Word.self)
        }
        switch rotation {
        case .none where Encoding.self == XRGB8888Encoding.self:
            // The frame's own format. Rows that start on cache lines are streamed past the cache,
            // sixteen pixels (one line) a step: scan-out memory is written once and read by the
            // display, never by the processor (docs/architecture.md, "Unturned rows streamed too").
            let rowBytes = width &* 4
            if StreamingStore.allowed(base: surface.base, bytesPerRow: surface.bytesPerRow) {
                for y in rows {
                    StreamingStore.copyRow(
                        from: UnsafeRawPointer(source + y &* sourceStride), to: UnsafeMutableRawPointer(panelRow(y)),
                        pixels: width)
                }
                StreamingStore.fence()
                return
            }
            // Elsewhere the C library's copy, as one block when the rows are contiguous in both.
            if surface.bytesPerRow == rowBytes && sourceStride == width {
                UnsafeMutableRawPointer(panelRow(rows.lowerBound)).copyMemory(
                    from: source + rows.lowerBound &* sourceStride, byteCount: rows.count &* rowBytes)
            } else {
                for y in rows {
                    UnsafeMutableRawPointer(panelRow(y)).copyMemory(
                        from: source + y &* sourceStride, byteCount: rowBytes)
                }
            }
        case .none:
            // In SIMD registers whatever the format (the 16-bit formats' conversion included),
            // each panel row written front to back; rows contiguous in both as one long row (a
            // call a row, each with its own tail, was about 13 K instructions a 480x320 frame).
            if surface.bytesPerRow == width &* MemoryLayout<Encoding.Word>.stride && sourceStride == width {
                Encoding.encodeRow(
                    from: source + rows.lowerBound &* sourceStride, to: panelRow(rows.lowerBound),
                    count: rows.count &* width)
            } else {
                for y in rows { Encoding.encodeRow(from: source + y * sourceStride, to: panelRow(y), count: width) }
            }
        case .half:
            // Four pixels at a time, their order reversed in registers: left to the compiler, the
            // reversed loop was vectorized in some builds and not in others (1.0 or 1.45 ms).
            // XRGB8888 rows whose reversed stores are aligned are streamed past the cache.
            if Encoding.self == XRGB8888Encoding.self
                && StreamingStore.allowed(base: surface.base, bytesPerRow: surface.bytesPerRow) && width % 4 == 0
            {
                for y in rows {
                    let from = UnsafeRawPointer(source + y * sourceStride)
                    let to = UnsafeMutableRawPointer(panelRow(height - 1 - y))
                    var x = 0
                    while x < width {
                        let four = from.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
                        StreamingStore.store(
                            SIMD4(four[3], four[2], four[1], four[0]), to: to + (width &- 4 &- x) &* 4, streaming: true)
                        x &+= 4
                    }
                }
                StreamingStore.fence()
                return
            }
            for y in rows {
                let from = source + y * sourceStride
                let to = panelRow(height - 1 - y)
                var x = 0
                while x &+ 4 <= width {
                    let four = UnsafeRawPointer(from + x).loadUnaligned(as: SIMD4<UInt32>.self)
                    UnsafeMutableRawPointer(to + (width &- 4 &- x)).storeBytes(
                        of: Encoding.encode(SIMD4(four[3], four[2], four[1], four[0])), as: SIMD4<Encoding.Word>.self)
                    x &+= 4
                }
                while x < width {
                    to[width &- 1 &- x] = Encoding.encode(from[x])
                    x &+= 1
                }
            }
        case .quarter:
            QuarterTurn.copy(frame, rows: rows, to: surface, clockwise: true, carry: carry, as: Encoding.self)
        case .threeQuarters:
            QuarterTurn.copy(frame, rows: rows, to: surface, clockwise: false, carry: carry, as: Encoding.self)
        }
    }

    /// How many rows a band renderer's grid of `rows`-row windows should be moved up by
    /// (`BandBuffer.phase`) so that each window's edges fall where a clockwise quarter turn's
    /// whole panel lines begin: there frame row y lands on panel column frameHeight - 1 - y, so a
    /// line (16 pixels of XRGB8888, 32 of RGB565, in a buffer whose rows start on cache lines)
    /// ends at the frame rows where frameHeight - y is a multiple of the line's pixels. A window
    /// edge elsewhere splits a line on every panel row into two partial lines of single blocks
    /// (1080 rows in windows of 64 from row 0: half a line at every edge). Other turns are on the
    /// grid from row 0.
    public static func bandPhase(frameHeight: Int, rows: Int, rotation: Rotation) -> Int {
        // A frame no taller than a band is one window.
        guard rotation == .quarter, rows > 0, frameHeight > rows else { return 0 }
        return (rows - frameHeight % rows) % rows
    }

    /// Reads scan-out memory back as the panel shows it (for snapshots of an fbdev panel).
    static func read(_ surface: ScanoutSurface) -> PixelBuffer {
        switch surface.format {
        case .xrgb8888: read(surface, as: XRGB8888Encoding.self)
        case .xbgr8888: read(surface, as: XBGR8888Encoding.self)
        case .rgb565: read(surface, as: RGB565Encoding.self)
        case .bgr565: read(surface, as: BGR565Encoding.self)
        }
    }

    private static func read<Encoding: PixelEncoding>(_ surface: ScanoutSurface, as _: Encoding.Type) -> PixelBuffer {
        let image = PixelBuffer(width: surface.width, height: surface.height)
        image.withPixels { pixels in
            for y in 0..<surface.height {
                let row = UnsafePointer(
                    (surface.base + y * surface.bytesPerRow).assumingMemoryBound(to: Encoding.Word.self))
                for x in 0..<surface.width { pixels[y * image.stride + x] = Encoding.decode(row[x]) }
            }
        }
        return image
    }
}
