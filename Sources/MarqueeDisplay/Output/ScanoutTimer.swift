import MarqueeCore

/// The scan-out stage of the DRM and fbdev backends (row hashing, then the copy of changed rows,
/// turned and converted) into buffers in ordinary memory, timed: for `marquee bench --scanout`,
/// which puts its cost beside the rendering and a plain frame copy.
public final class ScanoutTimer {
    public let rotation: Rotation
    public let format: ScanoutFormat
    private let damage: ScanoutDamage
    private let memory: [UnsafeMutableRawPointer]
    private let surfaces: [ScanoutSurface]
    private var next = 0

    public init(frameSize: PixelSize, rotation: Rotation, format: ScanoutFormat, buffers: Int = 2) {
        self.rotation = rotation
        self.format = format
        let panel = rotation.panelSize(ofLogical: frameSize)
        let bytesPerRow = panel.width * format.bytesPerPixel
        memory = (0..<buffers).map { _ in
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * panel.height, alignment: 64)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * panel.height)
            return bytes
        }
        surfaces = memory.map {
            ScanoutSurface(base: $0, bytesPerRow: bytesPerRow, width: panel.width, height: panel.height, format: format)
        }
        damage = ScanoutDamage(rows: frameSize.height, buffers: buffers)
    }

    deinit { for bytes in memory { bytes.deallocate() } }

    /// Sends `frame` to the next buffer as a backend's `present` would, `changedRows` being what
    /// the renderer wrote (nil: unknown, every row is hashed); returns milliseconds.
    public func present(_ frame: PixelBuffer, changedRows: Range<Int>? = nil) -> Double {
        let start = MonotonicClock.now()
        damage.measure(frame, rows: changedRows)
        damage.copyChangedRows(of: frame, into: surfaces[next], buffer: next, rotation: rotation)
        next = (next + 1) % surfaces.count
        return (MonotonicClock.now() - start) * 1000
    }

    public var name: String { "rotate \(rotation.rawValue) \(format)" }
}
