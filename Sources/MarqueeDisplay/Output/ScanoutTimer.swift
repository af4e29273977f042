import MarqueeCore

/// The scan-out stage of the DRM and fbdev backends into buffers in ordinary memory, timed: for
/// `marquee bench --scanout`, which puts its cost beside the rendering and a plain frame copy.
/// As DRM does it (the rows each buffer lacks known from the renderer, copied, turned and
/// converted; a frame that differs in no row from the one "on screen", the buffer presented
/// last, sent nowhere), or with `hashesRows` as fbdev does it (`ScanoutDamage`: the renderer's
/// bands hashed first when they are at most half the frame, and only the rows whose hash differs
/// from what the buffer holds copied).
public final class ScanoutTimer {
    public let rotation: Rotation
    public let format: ScanoutFormat
    public let hashesRows: Bool
    private let frameSize: PixelSize
    private let damage: ScanoutDamage
    private var rows: ScanoutRows
    private let memory: ScanoutMemory
    private var surfaces: [ScanoutSurface] { memory.surfaces }
    private var next = 0
    private let carry = TurnCarry()
    /// False until the first present (DRM commits its first frame whatever changed).
    private var presented = false
    /// The kernel damage clips of the last present (none: nothing changed), as DRM would commit them.
    private(set) var lastClips = DamageClips(
        frameRows: RowBands(), frame: PixelSize(width: 0, height: 0), rotation: .none)

    public init(
        frameSize: PixelSize, rotation: Rotation, format: ScanoutFormat, buffers: Int = 2, hashesRows: Bool = false
    ) {
        self.rotation = rotation
        self.format = format
        self.hashesRows = hashesRows
        self.frameSize = frameSize
        memory = ScanoutMemory(frameSize: frameSize, rotation: rotation, format: format, buffers: buffers)
        damage = ScanoutDamage(rows: frameSize.height, buffers: buffers)
        rows = ScanoutRows(rows: frameSize.height, buffers: buffers)
    }

    /// Sends `frame` to the next buffer as a backend's `present` would, `changedRows` being what
    /// the renderer wrote (nil: unknown, every row); returns milliseconds.
    public func present(_ frame: PixelBuffer, changedRows: RowBands? = nil) -> Double {
        let start = MonotonicClock.now()
        if hashesRows {
            damage.measure(frame, bands: changedRows ?? RowBands(0..<frame.height))
            damage.copyChangedRows(of: frame, into: surfaces[next], buffer: next, rotation: rotation)
        } else {
            let changed = changedRows ?? RowBands(0..<frame.height)
            rows.add(changed)
            let onScreen = (next + surfaces.count - 1) % surfaces.count
            // As DRM's commit: the rows that differ from the buffer on screen.
            let damage = rows.lacking(inBuffer: onScreen)
            if damage.isEmpty && presented {
                // Nothing differs from the buffer on screen: DRM commits nothing, copies nothing.
                lastClips = DamageClips(frameRows: RowBands(), frame: frameSize, rotation: rotation)
                return (MonotonicClock.now() - start) * 1000
            }
            presented = true
            for band in rows.lacking(inBuffer: next) {
                FrameCopier.copy(frame, rows: band, to: surfaces[next], rotation: rotation, carry: carry)
            }
            carry.finish()
            rows.written(buffer: next)
            lastClips = DamageClips(frameRows: damage, frame: frameSize, rotation: rotation)
        }
        next = (next + 1) % surfaces.count
        return (MonotonicClock.now() - start) * 1000
    }

    public var name: String { "rotate \(rotation.rawValue) \(format)\(hashesRows ? " hashed" : "")" }
}
