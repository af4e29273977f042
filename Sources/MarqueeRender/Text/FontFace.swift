import CFreeType
import CHarfBuzz
import CPixman

/// One font file at one pixel size: an `FT_Face` that rasterizes glyphs (each once, kept while the
/// library's glyph budget allows: `GlyphBudget`) and a HarfBuzz font over the same file that
/// shapes text. A face opened by a `FontSet` also knows where to find characters it lacks
/// (`FontFallback`), and keeps the faces it borrowed them from, numbered from 1
/// (`face(numbered:)`), so a laid-out glyph names its face with a small number instead of a
/// reference.
public final class FontFace {
    public let path: String
    /// The face's index within its file (a `.ttc` collection holds several).
    public let faceIndex: Int
    public let pixelSize: Int
    /// Whether the font has colour glyphs (CBDT bitmaps, COLR layers): they are loaded with
    /// `FT_LOAD_COLOR` and drawn in their own colours.
    public let hasColor: Bool
    /// Requested pixel size over the bitmap strike's for a font of fixed strikes only (a CBDT
    /// emoji font); 1 for scalable fonts. Glyph images and bearings are multiplied by it.
    public let bitmapScale: Double
    let library: FreeTypeLibrary
    /// The glyph budget of the library's faces (this one's and its fallback faces').
    var glyphCache: GlyphBudget { library.glyphCache }
    let face: FT_Face
    /// `hb_font_t`, scaled to 1/64 px so that positions keep FreeType's fixed-point precision.
    let harfBuzzFont: OpaquePointer
    /// `hb_buffer_t`, reused by every shaping call on this face (rendering is single-threaded).
    let harfBuzzBuffer: OpaquePointer
    private var glyphIndexOfScalar: [UInt32: UInt32] = [:]
    /// The glyph indices of ASCII characters, `UInt32.max` until asked (`glyphIndex(forValue:)`):
    /// a new card's text asks for every character it shapes, and a lookup in the dictionary
    /// above (hashing, exclusive access) was most of the font choice's cost for Latin text.
    private let asciiGlyphIndex: UnsafeMutablePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 128)
        table.initialize(repeating: .max, count: 128)
        return table
    }()
    private let glyphs: GlyphTable
    /// pixman's glyph cache (copies of the masks drawn through a colour; the library's, shared by
    /// its faces and counted in its glyph budget), so that a line's glyphs go to pixman in one call
    /// (`TextPainter.draw`), and the glyphs of the line being drawn (storage kept from line to line).
    let pixmanGlyphs: OpaquePointer
    var glyphRun: [pixman_glyph_t] = []
    /// How many glyphs were rasterized (the cache's misses); tests check it never repeats work.
    public private(set) var rasterizedGlyphCount = 0

    /// Where characters this face lacks come from; nil: nowhere (they are drawn as .notdef).
    var fallback: FontFallback?
    /// Faces characters were borrowed from, in the order first needed (face number 1, 2, ...).
    private(set) var fallbackFaces: [FontFace] = []
    /// Whether this face or a face it borrowed from has colour glyphs, so that its lines may
    /// hold some (the card text layers then look for them; Latin-only styles skip the search).
    private(set) var drawsColor = false
    /// The colour face chosen for each emoji-presentation character; nil when none has it.
    private var colorNumberOfScalar: [UInt32: UInt16?] = [:]
    /// Face number for each fallback candidate tried; nil for a candidate that cannot be opened.
    private var numberOfCandidate: [Int: UInt16?] = [:]
    /// The decision for each character this face lacks: a face number, or 0 when none has it.
    private var numberOfMissingScalar: [UInt32: UInt16] = [:]
    /// Laid-out lines by text and box, so a text seen before (a repeated body) costs a lookup.
    var layoutCache = LayoutCache()

    /// Opens `path` (`FT_New_Face`) and sets the size (`FT_Set_Pixel_Sizes`).
    public init(library: FreeTypeLibrary, path: String, index: Int = 0, pixelSize: Int) throws(RenderError) {
        var face: FT_Face?
        let status = FT_New_Face(library.handle, path, FT_Long(index), &face)
        guard status == 0, let face else {
            throw RenderError(
                .fontUnreadable, "cannot read font file \(path) (FreeType error \(status): missing or not a font)")
        }
        let hasColor = marquee_ft_has_color(face) != 0
        var bitmapScale = 1.0
        if FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize))) != 0 {
            // A colour font of fixed strikes (Noto Color Emoji: one 109 px strike) is drawn from
            // the nearest strike, scaled. A monochrome bitmap font is not: scaled pixel art would
            // look broken, so it stays a font that cannot be drawn at this size.
            guard hasColor, let strike = Self.nearestStrike(face, to: max(1, pixelSize)),
                FT_Select_Size(face, FT_Int(strike.index)) == 0
            else {
                FT_Done_Face(face)
                throw RenderError(.fontUnreadable, "font \(path) cannot be drawn at \(pixelSize) px")
            }
            bitmapScale = Double(max(1, pixelSize)) / strike.pixels
        }
        // HarfBuzz reads the file itself (mapped, shared with FreeType's mapping by the kernel) and
        // uses its own OpenType functions: unhinted advances in 1/64 px, exactly what `hb-shape`
        // prints, so the tests can hold shaping to HarfBuzz's own tool.
        let blob = hb_blob_create_from_file_or_fail(path)
        let harfBuzzFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let font = hb_font_create(harfBuzzFace)!
        hb_face_destroy(harfBuzzFace)
        let scale = Int32(max(1, pixelSize) * 64)
        hb_font_set_scale(font, scale, scale)
        hb_font_set_ppem(font, UInt32(max(1, pixelSize)), UInt32(max(1, pixelSize)))
        self.library = library
        self.face = face
        self.harfBuzzFont = font
        self.harfBuzzBuffer = hb_buffer_create()!
        self.path = path
        self.faceIndex = index
        self.pixelSize = pixelSize
        self.hasColor = hasColor
        self.bitmapScale = bitmapScale
        self.drawsColor = hasColor
        glyphs = GlyphTable(glyphCount: Int(face.pointee.num_glyphs), budget: library.glyphCache)
        pixmanGlyphs = library.glyphCache.pixmanCache
    }

    /// The strike to draw `pixels` from: the smallest at least that large (shrinking keeps
    /// detail), else the largest.
    private static func nearestStrike(_ face: FT_Face, to pixels: Int) -> (index: Int, pixels: Double)? {
        guard marquee_ft_has_fixed_sizes(face) != 0, let sizes = face.pointee.available_sizes else { return nil }
        var strikes: [(index: Int, pixels: Double)] = []
        for index in 0..<Int(face.pointee.num_fixed_sizes) {
            let size = sizes[index]
            let ppem = size.y_ppem > 0 ? Double(size.y_ppem) / 64 : Double(size.height)
            if ppem > 0 { strikes.append((index, ppem)) }
        }
        let larger = strikes.filter { $0.pixels >= Double(pixels) }
        return larger.min { $0.pixels < $1.pixels } ?? strikes.max { $0.pixels < $1.pixels }
    }

    deinit {
        hb_buffer_destroy(harfBuzzBuffer)
        asciiGlyphIndex.deallocate()
        hb_font_destroy(harfBuzzFont)
        FT_Done_Face(face)
    }

    /// The glyph index for a character (`FT_Get_Char_Index`), 0 for characters the font lacks.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 { glyphIndex(forValue: scalar.value) }

    func glyphIndex(forValue value: UInt32) -> UInt32 {
        if value < 128 {
            let known = asciiGlyphIndex[Int(value)]
            if known != .max { return known }
            let index = UInt32(FT_Get_Char_Index(face, FT_ULong(value)))
            asciiGlyphIndex[Int(value)] = index
            return index
        }
        if let index = glyphIndexOfScalar[value] { return index }
        let index = UInt32(FT_Get_Char_Index(face, FT_ULong(value)))
        glyphIndexOfScalar[value] = index
        return index
    }

    /// The face numbered `number`: 0 is this face, 1... the fallback faces it opened.
    public func face(numbered number: UInt16) -> FontFace {
        number == 0 ? self : fallbackFaces[Int(number) - 1]
    }

    /// The face number that has `value` when this face lacks it: the best fallback fontconfig
    /// offers, decided once per character; 0 (this face, its .notdef box) when no font has it.
    func fallbackNumber(forMissing value: UInt32) -> UInt16 {
        if let number = numberOfMissingScalar[value] { return number }
        let chosen = fallback.flatMap { firstUsable($0.candidates(containing: value), of: $0) } ?? 0
        numberOfMissingScalar[value] = chosen
        return chosen
    }

    /// The face number to draw an emoji-presentation character with: this face when it is a
    /// colour font that has it, else the first colour font fontconfig offers that has it, even
    /// when this face has a glyph of its own (DejaVu Sans has a black-and-white U+1F600); nil
    /// when no colour font has it (the ordinary choice then stands).
    func colorFaceNumber(for value: UInt32) -> UInt16? {
        if hasColor, glyphIndex(forValue: value) != 0 { return 0 }
        if let known = colorNumberOfScalar[value] { return known }
        let chosen = fallback.flatMap { firstUsable($0.colorCandidates(containing: value), of: $0) }
        colorNumberOfScalar[value] = chosen
        return chosen
    }

    /// The face number of the first of `candidates` that opens at this face's size.
    private func firstUsable(_ candidates: [Int], of fallback: FontFallback) -> UInt16? {
        for candidate in candidates {
            if let number = open(candidate, of: fallback) { return number }
        }
        return nil
    }

    /// Opens candidate `candidate` at this face's size, once; nil when it cannot be used.
    private func open(_ candidate: Int, of fallback: FontFallback) -> UInt16? {
        if let known = numberOfCandidate[candidate] { return known }
        let file = fallback.file(candidate)
        var number: UInt16?
        if file.path != path || file.index != faceIndex, fallbackFaces.count < Int(UInt16.max),
            let opened = try? FontFace(library: library, path: file.path, index: file.index, pixelSize: pixelSize)
        {
            fallbackFaces.append(opened)
            drawsColor = drawsColor || opened.hasColor
            number = UInt16(fallbackFaces.count)
        }
        numberOfCandidate[candidate] = number
        return number
    }

    /// Whether this face, or a font it falls back to, has a glyph for `scalar` (characters drawn
    /// with no glyph, such as joiners and bidi controls, count as drawable).
    public func canDraw(_ scalar: Unicode.Scalar) -> Bool {
        ShapedParagraph.isDefaultIgnorable(scalar.value) || scalar.properties.generalCategory == .control
            || glyphIndex(forValue: scalar.value) != 0 || fallbackNumber(forMissing: scalar.value) != 0
    }

    /// Whether the glyph at `index` is rasterized and kept now (for the tests; not a use).
    func keepsGlyph(_ index: UInt32) -> Bool { glyphs.contains(index) }

    /// The glyph, rasterized on first use (and again after the glyph budget let it go).
    public func glyph(_ index: UInt32) -> Glyph {
        if let glyph = glyphs[index] { return glyph }
        let glyph = rasterize(index)
        glyphs.insert(glyph, at: index)
        return glyph
    }

    /// This face's glyphs blended through `table` (`BlendedGlyphs`), kept for the last few
    /// tables asked for (`blendedTablesLimit`). A table's blends are dropped for a new table's only
    /// when it was last asked for before the frame before the asking table's (`OverTable.frame`):
    /// a scroll over a background whose hue moves asks for a new table every few frames and the
    /// stale ones make room, while a deck whose lines take more colours or fills a frame than
    /// the limit draws the rest through the table alone, rather than making and dropping the
    /// same glyphs' blends every frame. Nil then.
    func blendedGlyphs(through table: GlyphBlender.OverTable) -> BlendedGlyphs? {
        if let known = blended.first(where: { $0.table === table }) { return known }
        if blended.count >= Self.blendedTablesLimit {
            guard
                let stale = blended.indices.min(by: { blended[$0].table.frame < blended[$1].table.frame }),
                blended[stale].table.frame < table.frame - 1
            else { return nil }
            blended.remove(at: stale)
        }
        let made = BlendedGlyphs(table: table, glyphCount: Int(face.pointee.num_glyphs))
        blended.append(made)
        return made
    }
    private var blended: [BlendedGlyphs] = []
    static let blendedTablesLimit = 4

    /// The glyph's mask, rasterized on first use, as plain values (no reference counted once the
    /// glyph is in the table; its bytes stay until the next frame at least: `GlyphBudget`).
    @inline(__always)
    func mask(_ index: UInt32) -> GlyphMask {
        if let mask = glyphs.mask(index) { return mask }
        return GlyphMask(glyph(index))
    }

    private func rasterize(_ index: UInt32) -> Glyph {
        rasterizedGlyphCount += 1
        // Only colour fonts load with FT_LOAD_COLOR: CBDT strikes come as BGRA bitmaps, and COLR
        // layers are blended by FreeType into one BGRA bitmap. Other fonts keep their flags.
        let flags = hasColor ? FT_LOAD_RENDER | FT_LOAD_COLOR : FT_LOAD_RENDER
        guard FT_Load_Glyph(face, index, FT_Int32(flags)) == 0 else {
            return Glyph(mask: nil, bearingX: 0, bearingY: 0, advance: 0)
        }
        let slot = face.pointee.glyph.pointee
        if let glyph = GlyphBitmap.glyph(from: slot, scale: bitmapScale) { return glyph }
        return Glyph(
            mask: nil, bearingX: Int(slot.bitmap_left), bearingY: Int(slot.bitmap_top),
            advance: Double(slot.advance.x) / 64 * bitmapScale)
    }
}
