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
    ///
    /// `spans`: the fills the band renderer left out of `frame`'s window (`ConstantSpans`), each
    /// streamed from a register. Only the copies `spanPhase` names take them; any other is given
    /// the band with the spans written into it first.
    ///
    /// `held`: what the surface is known to hold (`HeldSpans`), kept true by this copy: the parts
    /// of `spans` it already holds are not written again, and rows copied without a table are
    /// forgotten.
    static func copy(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation, carry: TurnCarry? = nil,
        spans: ConstantSpans? = nil, held: HeldSpans? = nil
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
        if let spans {
            if spans.frameBase == frame.baseAddress && !spans.isEmpty
                && spanPhase(of: surface, frameWidth: frame.width, rotation: rotation) == spans.phase
                && spans.linePixels == Self.spanLinePixels
            {
                if let held {
                    precondition(
                        rows.upperBound <= held.height, "FrameCopier: row \(rows.upperBound - 1) past the record")
                    held.use(width: frame.width, rotation: rotation)
                }
                copy(frame, rows: rows, to: surface, rotation: rotation, spans: spans, held: held)
                held?.record(rows: rows, from: spans)
                return
            }
            spans.materializeAll()
        }
        held?.forget(rows: rows)
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
                    reverse(
                        from: UnsafeRawPointer(source + y * sourceStride),
                        to: UnsafeMutableRawPointer(panelRow(height - 1 - y)), columns: 0..<width, width: width)
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

    /// Pixels of a scan-out line (64 bytes of XRGB8888): the unit of `ConstantSpans`.
    public static let spanLinePixels = 16

    /// The phase of the `ConstantSpans` a copy into `surface` turned by `rotation` writes from
    /// registers, or nil when it takes none (then the band renderer writes every fill): only the
    /// streamed XRGB8888 copies, unturned (lines start at column 0) and turned by half (a line
    /// ends where `width - x` is a multiple of 16). Turned a quarter, a line is a column of 16
    /// rows, and 16-bit formats are converted on the way.
    public static func spanPhase(of surface: ScanoutSurface, frameWidth: Int, rotation: Rotation) -> Int? {
        guard surface.format == .xrgb8888, StreamingStore.allowed(base: surface.base, bytesPerRow: surface.bytesPerRow)
        else { return nil }
        switch rotation {
        case .none: return 0
        case .half: return frameWidth % 4 == 0 ? frameWidth % spanLinePixels : nil
        case .quarter, .threeQuarters: return nil
        }
    }

    /// The table for bands of `bandRows` rows copied into `surface`: `kept` when it fits, a new
    /// one when the copy's phase changed, nil when the copy takes no spans.
    public static func spans(
        keeping kept: ConstantSpans?, bandRows: Int, surface: ScanoutSurface, frameWidth: Int, rotation: Rotation
    ) -> ConstantSpans? {
        guard let phase = spanPhase(of: surface, frameWidth: frameWidth, rotation: rotation) else { return nil }
        if let kept, kept.phase == phase, kept.capacity >= bandRows { return kept }
        return ConstantSpans(rows: bandRows, linePixels: spanLinePixels, phase: phase)
    }

    /// The streamed XRGB8888 copies with the window's spans: between spans the band's pixels, a
    /// span's lines from a register.
    private static func copy(
        _ frame: PixelBuffer, rows: Range<Int>, to surface: ScanoutSurface, rotation: Rotation, spans: ConstantSpans,
        held: HeldSpans?
    ) {
        let source = UnsafeRawPointer(frame.baseAddress)
        let sourceRowBytes = frame.stride &* 4
        let width = surface.width
        held?.beginCopy()
        for y in rows {
            let from = source + y &* sourceRowBytes
            let now = spans.spans(ofRow: y)
            // The fills to write: the spans less what the buffer already holds.
            let fills = held?.missing(now, row: y) ?? now
            var fill = 0
            var cursor = 0
            if rotation == .none {
                let to = surface.base + y &* surface.bytesPerRow
                for span in now {
                    if span.x0 > cursor {
                        StreamingStore.copyRow(
                            from: from + cursor &* 4, to: to + cursor &* 4, pixels: span.x0 &- cursor)
                    }
                    while fill < fills.count && fills[fill].x0 < span.x1 {
                        let part = fills[fill]
                        StreamingStore.fillRow(part.pixel, to: to + part.x0 &* 4, pixels: part.x1 &- part.x0)
                        fill &+= 1
                    }
                    cursor = span.x1
                }
                if cursor < width {
                    StreamingStore.copyRow(from: from + cursor &* 4, to: to + cursor &* 4, pixels: width &- cursor)
                }
            } else {
                let to = surface.base + (surface.height &- 1 &- y) &* surface.bytesPerRow
                for span in now {
                    reverse(from: from, to: to, columns: cursor..<span.x0, width: width)
                    while fill < fills.count && fills[fill].x0 < span.x1 {
                        let part = fills[fill]
                        StreamingStore.fillRow(
                            part.pixel, to: to + (width &- part.x1) &* 4, pixels: part.x1 &- part.x0)
                        fill &+= 1
                    }
                    cursor = span.x1
                }
                reverse(from: from, to: to, columns: cursor..<width, width: width)
            }
        }
        StreamingStore.fence()
    }

    /// Columns of a frame row (their ends multiples of 4) into a panel row in reverse, streamed
    /// four pixels a store.
    @inline(__always) private static func reverse(
        from: UnsafeRawPointer, to: UnsafeMutableRawPointer, columns: Range<Int>, width: Int
    ) {
        var x = columns.lowerBound
        while x < columns.upperBound {
            let four = from.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt32>.self)
            StreamingStore.store(
                SIMD4(four[3], four[2], four[1], four[0]), to: to + (width &- 4 &- x) &* 4, streaming: true)
            x &+= 4
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
