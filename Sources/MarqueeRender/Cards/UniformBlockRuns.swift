/// For every texel of a card's raster, how many 2x2 blocks starting there and going right hold
/// four equal texels (capped at 255): the blocks a bilinear sample can fall in and come out as
/// that one color, exactly, with no interpolation. A card is mostly its fill, so the compositor
/// reads one count and blends a whole run of frame pixels with one color, where it would read
/// and compare four texels for every pixel. Built on first use and kept with the raster (one byte
/// a texel, a quarter of the raster's own memory); a raster's pixels never change once made.
final class UniformBlockRuns {
    /// Texels per row of the map: the raster's width.
    let width: Int
    let height: Int
    private var lengths: UnsafeMutablePointer<UInt8>?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    deinit { lengths?.deallocate() }

    /// The memory the map takes once built, counted in the raster cache's budget from the start.
    var byteCount: Int { width * height }

    /// The counts for `raster` (the raster this map was made for), built on the first call.
    func lengths(of raster: PixmanImage) -> UnsafePointer<UInt8>? {
        if let lengths { return UnsafePointer(lengths) }
        guard raster.width == width, raster.height == height, width > 0, height > 0,
            let pixels = raster.pixels?.assumingMemoryBound(to: UInt32.self)
        else { return nil }
        let map = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height)
        let sourceRow = raster.stride / 4
        // The last row and column start no block: their neighbours are outside (transparent),
        // which would need checking; 0 sends those samples to the per-pixel path.
        for y in 0..<height {
            let out = map + y * width
            out[width - 1] = 0
            guard y < height - 1 else {
                out.initialize(repeating: 0, count: width)
                break
            }
            let top = pixels + y * sourceRow
            let bottom = top + sourceRow
            var next: UInt8 = 0
            var x = width - 2
            while x >= 0 {
                let texel = top[x]
                let uniform = texel == top[x + 1] && texel == bottom[x] && texel == bottom[x + 1]
                // Two neighbouring uniform blocks share two texels, so they have the same color.
                next = uniform ? (next == 255 ? 255 : next + 1) : 0
                out[x] = next
                x -= 1
            }
        }
        lengths = map
        return UnsafePointer(map)
    }
}
