import CPixman
import MarqueeCore

/// A few rows of a frame in ordinary memory, small enough to stay in the L2 cache (1080p, 32
/// rows: 245 KB), which the band renderer draws into one window of rows at a time before the
/// window is copied out to scan-out memory (`Renderer.render(_:deck:bandsFor:onScreen:through:sink:)`).
///
/// The frame is cut into windows on a fixed grid (rows `k * rows - phase ..< (k + 1) * rows -
/// phase`, the first one shortened by `phase`: the copy that follows may want the windows' edges
/// where its own grid has them, `FrameCopier.bandPhase`). For window `k` the band's memory is
/// seen as a whole frame whose row `k * rows - phase` is the band's first row: a frame-sized `PixelBuffer` view and a pixman image over it, with the frame's own
/// coordinates, so everything is drawn exactly as into a whole frame, clipped to the window. Only
/// the window's rows are backed by memory; the renderer clips every drawing to them. The views
/// and images are made once per window position, then reused every frame.
public final class BandBuffer {
    public let width: Int
    public let frameHeight: Int
    /// Rows of the band (the height of every window but maybe the last).
    public let rows: Int
    /// Rows the grid is moved up by (0 ..< rows): the first window has `rows - phase` rows.
    public let phase: Int
    private let memory: BandMemory
    private var views: [(frame: PixelBuffer, image: PixmanImage)?]

    /// `guardRows` rows of a known pattern above and below the band (for the tests: anything
    /// drawn outside a window would change them, `guardsIntact`).
    public init(frameWidth: Int, frameHeight: Int, rows: Int, phase: Int = 0, guardRows: Int = 0) {
        precondition(frameWidth > 0 && frameHeight > 0 && rows > 0, "BandBuffer: empty size")
        width = frameWidth
        self.frameHeight = frameHeight
        self.rows = min(rows, frameHeight)
        self.phase = phase % self.rows
        precondition(self.phase >= 0, "BandBuffer: a negative phase")
        memory = BandMemory(pixels: frameWidth * self.rows, guard: frameWidth * guardRows)
        views = Array(repeating: nil, count: (frameHeight + self.phase + self.rows - 1) / self.rows)
    }

    /// The window of frame rows that grid position `index` covers.
    public func window(_ index: Int) -> Range<Int> {
        max(0, index * rows - phase)..<min(frameHeight, (index + 1) * rows - phase)
    }

    /// The grid position of the window holding frame row `row`.
    public func index(ofRow row: Int) -> Int { (row + phase) / rows }

    /// Whether the guard rows still hold their pattern.
    public var guardsIntact: Bool { memory.guardsIntact }

    /// The frame view and pixman image whose rows `window(index)` are the band's memory.
    func view(_ index: Int) throws(RenderError) -> (frame: PixelBuffer, image: PixmanImage) {
        if let made = views[index] { return made }
        // Frame row `index * rows - phase` is the band's first row: the view starts that many rows
        // before the band (the first window, shortened by `phase`, lies at the band's end).
        // Nothing outside the window is touched (every drawing is clipped to it).
        let base = memory.pixels - (index * rows - phase) * width
        let frame = PixelBuffer(viewing: base, width: width, height: frameHeight, stride: width, owner: memory)
        let image = try PixmanImage(
            wrapping: UnsafeMutableRawPointer(base), format: PIXMAN_x8r8g8b8, width: width, height: frameHeight,
            stride: width * 4)
        views[index] = (frame, image)
        return (frame, image)
    }
}

/// The band's pixels, owned apart from the views over them (which keep it alive).
private final class BandMemory {
    let pixels: UnsafeMutablePointer<UInt32>
    private let start: UnsafeMutablePointer<UInt32>
    private let count: Int
    private let guardCount: Int
    private static let pattern: UInt32 = 0xA5C3_5A3C

    init(pixels count: Int, guard guardCount: Int) {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: (count + 2 * guardCount) * 4, alignment: 64)
        start = bytes.initializeMemory(as: UInt32.self, repeating: Self.pattern, count: count + 2 * guardCount)
        pixels = start + guardCount
        pixels.update(repeating: 0xFF00_0000, count: count)
        self.count = count
        self.guardCount = guardCount
    }

    var guardsIntact: Bool {
        (0..<guardCount).allSatisfy { start[$0] == Self.pattern && pixels[count + $0] == Self.pattern }
    }

    deinit { start.deallocate() }
}
