import MarqueeCore

/// Scan-out buffers in ordinary memory written band by band, as the DRM backend would write its
/// dumb buffers if the renderer drew straight into them (`Renderer.render(_:deck:bandsFor:...)`):
/// each window of frame rows the renderer hands over is copied at once, turned by `rotation` and
/// converted to `format`, into the back buffer at its rows. For `marquee bench --scanout` (the
/// band paths, against the shadow frame's `ScanoutTimer`) and the tests that compare the two.
///
/// Each buffer is named by an object of its own (`back`, `front`), which the renderer keeps its
/// record of that buffer's frame under; `flip()` makes the back buffer the one on screen.
public final class BandScanout {
    public let rotation: Rotation
    public let format: ScanoutFormat
    public let frameSize: PixelSize
    private let memory: ScanoutMemory
    private let keys: [Key]
    /// What each buffer holds of the fills (`HeldSpans`), so that the copies skip them; none when
    /// made with `skipsHeldFills: false` (every fill written, to compare).
    private let held: [HeldSpans]?
    /// Lines held back between bands (16-bit quarter turns into rows off cache lines).
    private let carry = TurnCarry()
    private var constantSpans: ConstantSpans?
    private var next = 0
    /// False until the first flip: nothing is on screen yet.
    private var flipped = false
    /// Milliseconds spent copying bands since `resetCopyTime()`.
    public private(set) var copyMilliseconds = 0.0

    /// The name of one buffer, for the renderer's record of what it holds.
    public final class Key {}

    public init(
        frameSize: PixelSize, rotation: Rotation, format: ScanoutFormat, buffers: Int = 2, skipsHeldFills: Bool = true
    ) {
        self.rotation = rotation
        self.format = format
        self.frameSize = frameSize
        memory = ScanoutMemory(frameSize: frameSize, rotation: rotation, format: format, buffers: buffers)
        keys = (0..<buffers).map { _ in Key() }
        held = skipsHeldFills ? (0..<buffers).map { _ in HeldSpans(height: frameSize.height) } : nil
    }

    /// The buffer written next.
    public var back: AnyObject { keys[next] }
    /// The buffer on screen (nil before the first flip).
    public var front: AnyObject? { flipped ? keys[(next + keys.count - 1) % keys.count] : nil }

    /// The table of fills the copy writes from registers for bands of `rows` rows, as the DRM
    /// backend makes it (`FrameCopier.spans`), or nil when this path's copy takes none.
    public func spans(bandRows rows: Int) -> ConstantSpans? {
        constantSpans = FrameCopier.spans(
            keeping: constantSpans, bandRows: rows, surface: memory.surfaces[next], frameWidth: frameSize.width,
            rotation: rotation)
        return constantSpans
    }

    /// Copies `rows` of `frame` (only those rows are read: `frame` may be a band's view) into the
    /// back buffer, with the fills `spans` holds for them; `finishCopies()` completes the
    /// frame's copies.
    public func copy(_ frame: PixelBuffer, rows: Range<Int>, spans: ConstantSpans? = nil) {
        let start = MonotonicClock.now()
        FrameCopier.copy(
            frame, rows: rows, to: memory.surfaces[next], rotation: rotation, carry: carry, spans: spans,
            held: held?[next])
        copyMilliseconds += (MonotonicClock.now() - start) * 1000
    }

    /// Writes what the frame's last band copies held back (`TurnCarry`); timed with the copies.
    public func finishCopies() {
        let start = MonotonicClock.now()
        carry.finish()
        copyMilliseconds += (MonotonicClock.now() - start) * 1000
    }

    public func resetCopyTime() { copyMilliseconds = 0 }

    /// The back buffer goes on screen; the other one is written next.
    public func flip() {
        finishCopies()
        flipped = true
        next = (next + 1) % keys.count
    }

    /// The bytes of the buffer named `key` (for the tests' comparisons).
    public func bytes(of key: AnyObject) -> [UInt8] {
        carry.finish()
        guard let index = keys.firstIndex(where: { $0 === key }) else { return [] }
        return memory.bytes(of: index)
    }

    public var name: String { "bands rotate \(rotation.rawValue) \(format)" }
}
