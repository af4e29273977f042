import CBilinear

/// For every texel of a card's raster, how many 2x2 blocks starting there and going right hold
/// four equal texels (capped at 255): the blocks a bilinear sample can fall in and come out as
/// that one color, exactly, with no interpolation. A card is mostly its fill, so the compositor
/// reads one count and blends a whole run of frame pixels with one color, where it would read
/// and compare four texels for every pixel. A second map holds the same counts for the rows two
/// above to two below (their least): a turned card's samples drift across rows, and a run valid
/// on five rows lasts until they leave all five, not one. A third holds them for the rows eight
/// above to eight below: in a card's open fill, between and beside its lines of text, a run then
/// lasts over seventeen rows of drift, and a turned card's samples start a third as many runs.
/// Built on first use and kept with the raster (three bytes a texel, three quarters of the
/// raster's own memory); a raster's pixels never change once made.
final class UniformBlockRuns {
    /// The count in a byte of the row's own map.
    @inline(__always) static func ownCount(_ byte: UInt8) -> UInt8 { byte & 0x7F }
    /// Whether a byte of the row's own map marks a run of `commonColor`.
    @inline(__always) static func isCommon(_ byte: UInt8) -> Bool { byte >= 0x80 }

    /// Texels per row of each map: the raster's width.
    let width: Int
    let height: Int
    /// How many rows above and below the second map's runs hold for.
    static let slack = 2
    /// How many rows above and below the third map's runs hold for.
    static let wideSlack = 8
    private var lengths: UnsafeMutablePointer<UInt8>?
    /// The renderer's number of the first frame that drew the raster transformed (it spreads
    /// the building of maps over frames).
    var firstFrameDrawn: Int?
    var isBuilt: Bool { lengths != nil }
    /// The color whose runs the row's own map marks with its top bit (see `lengths(of:)`).
    private(set) var commonColor: UInt32 = 0

    /// The open fill's rectangles of blocks, found with the maps (`openFills(ownMap:...)`): the
    /// largest, and the largest beside it.
    private(set) var openFill: OpenFill?
    private(set) var otherOpenFill: OpenFill?

    /// What the compositor reads: the counts, the color the own map's top bit stands for, the
    /// rectangle of the open fill, and the colors of samples along the fill's top and bottom
    /// edges by their vertical weight (`edgeColors(opacity:)`).
    struct Maps {
        let lengths: UnsafePointer<UInt8>
        let commonColor: UInt32
        var openFill: OpenFill? = nil
        var otherOpenFill: OpenFill? = nil
        var edgeColors: UnsafePointer<UInt32>? = nil
    }

    /// The maps for `raster`, built on the first call (`lengths(of:)`), with the edge colors at
    /// `opacity` (the solid mask's 8-bit alpha).
    func maps(of raster: PixmanImage, opacity: UInt32 = 255) -> Maps? {
        lengths(of: raster).map {
            Maps(
                lengths: $0, commonColor: commonColor, openFill: openFill, otherOpenFill: otherOpenFill,
                edgeColors: edgeColors(opacity: opacity))
        }
    }

    /// 256 colors, made with the maps; the opacity they were last worked out for.
    private var edgeTable: UnsafeMutablePointer<UInt32>?
    private var edgeTableOpacity: UInt32?

    /// The color of a sample along the raster's top edge whose two texels inside are
    /// `commonColor` (the row above is outside, transparent), by its vertical weight w (0...127),
    /// at `opacity`: [w]; along the bottom edge (the row below outside): [128 + w]. The
    /// interpolation of (0, 0, c, c) is c * w / 128 in each channel, truncated, whatever the
    /// horizontal weight. Worked out again only when the opacity changes (a fading card: once a
    /// frame, not once a band).
    private func edgeColors(opacity: UInt32) -> UnsafePointer<UInt32>? {
        guard let edgeTable else { return nil }
        if edgeTableOpacity != opacity {
            edgeTableOpacity = opacity
            let fill = commonColor
            for weight in UInt32(0)..<128 {
                func scaled(_ weight: UInt32) -> UInt32 {
                    let color = marquee_bilinear(0, 0, fill, fill, 0, weight)
                    return opacity == 255 ? color : TurnedCardCompositor.multiply(color, by: opacity)
                }
                edgeTable[Int(weight)] = scaled(weight)
                // (c, c, 0, 0) at w is (0, 0, c, c) at 128 - w; at w = 0, c itself.
                edgeTable[128 + Int(weight)] =
                    weight == 0
                    ? (opacity == 255 ? fill : TurnedCardCompositor.multiply(fill, by: opacity)) : scaled(128 - weight)
            }
        }
        return UnsafePointer(edgeTable)
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    deinit {
        lengths?.deallocate()
        edgeTable?.deallocate()
    }

    /// The memory the maps take: nothing until built (most rasters are never drawn turned long
    /// enough to get one), then three bytes a texel and the edge colors' table.
    var byteCount: Int { isBuilt ? 3 * width * height + Self.edgeTableBytes : 0 }

    /// The edge colors' table: 256 colors.
    static let edgeTableBytes = 256 * 4

    /// The counts for `raster` (the raster this map was made for), built on the first call: the
    /// row's own at [y * width + x], those of rows y - slack ... y + slack after them, at
    /// [(height + y) * width + x], and those of rows y - wideSlack ... y + wideSlack last, at
    /// [(2 * height + y) * width + x]. The row's own counts are capped at 127 and have their top
    /// bit set where the block's color is `commonColor` (`ownCount` and `isCommon` read them).
    func lengths(of raster: PixmanImage) -> UnsafePointer<UInt8>? {
        if let lengths { return UnsafePointer(lengths) }
        guard raster.width == width, raster.height == height, width > 0, height > 0,
            let pixels = raster.pixels?.assumingMemoryBound(to: UInt32.self)
        else { return nil }
        let map = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * width * height)
        let sourceRow = raster.stride / 4
        // A row's differences, four texels at a time: zero where a block is uniform.
        let differences = UnsafeMutablePointer<UInt32>.allocate(capacity: width + 4)
        defer { differences.deallocate() }
        // The last row and column start no block: their neighbours are outside (transparent),
        // which would need checking; 0 sends those samples to the per-pixel path.
        for y in 0..<height {
            let out = map + y * width
            out[width - 1] = 0
            guard y < height - 1 else {
                out.initialize(repeating: 0, count: width)
                break
            }
            let top = UnsafeRawPointer(pixels + y * sourceRow)
            let bottom = top + raster.stride
            var x = 0
            while x + 4 < width {
                func texels(_ row: UnsafeRawPointer, _ column: Int) -> SIMD4<UInt32> {
                    row.loadUnaligned(fromByteOffset: column * 4, as: SIMD4<UInt32>.self)
                }
                let texel = texels(top, x)
                let difference =
                    (texel ^ texels(top, x + 1)) | (texel ^ texels(bottom, x)) | (texel ^ texels(bottom, x + 1))
                UnsafeMutableRawPointer(differences + x).storeBytes(of: difference, as: SIMD4<UInt32>.self)
                x += 4
            }
            while x < width - 1 {
                let texel = top.load(fromByteOffset: x * 4, as: UInt32.self)
                let difference =
                    (texel ^ top.load(fromByteOffset: x * 4 + 4, as: UInt32.self))
                    | (texel ^ bottom.load(fromByteOffset: x * 4, as: UInt32.self))
                    | (texel ^ bottom.load(fromByteOffset: x * 4 + 4, as: UInt32.self))
                differences[x] = difference
                x += 1
            }
            // Counted from the right. Two neighbouring uniform blocks share two texels, so they
            // have the same color.
            var next: UInt8 = 0
            x = width - 2
            while x >= 0 {
                next = differences[x] != 0 ? 0 : (next == 255 ? 255 : next + 1)
                out[x] = next
                x -= 1
            }
        }
        // Uniform blocks above one another share a row of texels too: the least count over the
        // rows is a run of one color on all of them. Rows past the raster's edges count 0.
        let slack = Self.slack
        for y in 0..<height {
            let out = map + (height + y) * width
            guard y >= slack, y + slack < height else {
                out.initialize(repeating: 0, count: width)
                continue
            }
            let first = map + (y - slack) * width
            var x = 0
            while x + 16 <= width {
                var least = UnsafeRawPointer(first + x).loadUnaligned(as: SIMD16<UInt8>.self)
                for row in 1...(2 * slack) {
                    least = pointwiseMin(
                        least, UnsafeRawPointer(first + row * width + x).loadUnaligned(as: SIMD16<UInt8>.self))
                }
                UnsafeMutableRawPointer(out + x).storeBytes(of: least, as: SIMD16<UInt8>.self)
                x += 16
            }
            while x < width {
                var least = first[x]
                for row in 1...(2 * slack) { least = min(least, first[row * width + x]) }
                out[x] = least
                x += 1
            }
        }
        // The wide map from the second: its windows of five rows centred on y - 6, y - 1, y + 4
        // and y + 6 cover the seventeen rows from y - 8 to y + 8 (wideSlack).
        let wide = Self.wideSlack
        for y in 0..<height {
            let out = map + (2 * height + y) * width
            guard y >= wide, y + wide < height else {
                out.initialize(repeating: 0, count: width)
                continue
            }
            func window(_ offset: Int) -> UnsafePointer<UInt8> { UnsafePointer(map + (height + y + offset) * width) }
            leastOf(window(-6), window(-1), window(4), window(6), into: out, count: width)
        }
        // The own map last (the others were built from its whole counts): capped at 127, with
        // the top bit on the runs of the commonest color, whose texel the compositor then need
        // not read.
        commonColor = Self.commonColor(of: pixels, map: map, width: width, height: height, sourceRow: sourceRow)
        for y in 0..<height {
            marquee_mark_common(map + y * width, pixels + y * sourceRow, width, commonColor)
        }
        (openFill, otherOpenFill) = Self.openFills(ownMap: map, width: width, height: height)
        edgeTable = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        lengths = map
        return UnsafePointer(map)
    }

    /// The color most texels that start a uniform block have, of 64 spread over the raster (a
    /// card's fill, as a rule); 0 when none does.
    private static func commonColor(
        of pixels: UnsafePointer<UInt32>, map: UnsafePointer<UInt8>, width: Int, height: Int, sourceRow: Int
    ) -> UInt32 {
        // On the stack: the map is built within a frame, which allocates nothing.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { colors in
            var found = 0
            for row in 0..<8 {
                for column in 0..<8 {
                    let x = (2 * column + 1) * width / 16
                    let y = (2 * row + 1) * height / 16
                    if map[y * width + x] != 0 {
                        colors[found] = pixels[y * sourceRow + x]
                        found += 1
                    }
                }
            }
            var best: UInt32 = 0
            var bestCount = 0
            for color in colors[0..<found] {
                let count = colors[0..<found].reduce(0) { $0 + ($1 == color ? 1 : 0) }
                if count > bestCount {
                    best = color
                    bestCount = count
                }
            }
            return best
        }
    }

    /// The least of four rows of counts, sixteen at a time.
    private func leastOf(
        _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ c: UnsafePointer<UInt8>, _ d: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        func load(_ row: UnsafePointer<UInt8>, _ x: Int) -> SIMD16<UInt8> {
            UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<UInt8>.self)
        }
        var x = 0
        while x + 16 <= count {
            let least = pointwiseMin(pointwiseMin(load(a, x), load(b, x)), pointwiseMin(load(c, x), load(d, x)))
            UnsafeMutableRawPointer(out + x).storeBytes(of: least, as: SIMD16<UInt8>.self)
            x += 16
        }
        while x < count {
            out[x] = min(min(a[x], b[x]), min(c[x], d[x]))
            x += 1
        }
    }
}
