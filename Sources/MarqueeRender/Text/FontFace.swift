import CFreeType
import CHarfBuzz
import CPixman

/// One font file at one pixel size: an `FT_Face` that rasterizes glyphs (each once, kept for the
/// face's lifetime) and a HarfBuzz font over the same file that shapes text. A face opened by a
/// `FontSet` also knows where to find characters it lacks (`FontFallback`), and keeps the faces it
/// borrowed them from, numbered from 1 (`face(numbered:)`), so a laid-out glyph names its face
/// with a small number instead of a reference.
public final class FontFace {
    public let path: String
    /// The face's index within its file (a `.ttc` collection holds several).
    public let faceIndex: Int
    public let pixelSize: Int
    let library: FreeTypeLibrary
    let face: FT_Face
    /// `hb_font_t`, scaled to 1/64 px so that positions keep FreeType's fixed-point precision.
    let harfBuzzFont: OpaquePointer
    /// `hb_buffer_t`, reused by every shaping call on this face (rendering is single-threaded).
    let harfBuzzBuffer: OpaquePointer
    private var glyphIndexOfScalar: [UInt32: UInt32] = [:]
    private var glyphs: [UInt32: Glyph] = [:]
    /// How many glyphs were rasterized (the cache's misses); tests check it never repeats work.
    public private(set) var rasterizedGlyphCount = 0

    /// Where characters this face lacks come from; nil: nowhere (they are drawn as .notdef).
    var fallback: FontFallback?
    /// Faces characters were borrowed from, in the order first needed (face number 1, 2, ...).
    private(set) var fallbackFaces: [FontFace] = []
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
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize))) == 0 else {
            FT_Done_Face(face)
            throw RenderError(.fontUnreadable, "font \(path) cannot be drawn at \(pixelSize) px")
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
    }

    deinit {
        hb_buffer_destroy(harfBuzzBuffer)
        hb_font_destroy(harfBuzzFont)
        FT_Done_Face(face)
    }

    /// The glyph index for a character (`FT_Get_Char_Index`), 0 for characters the font lacks.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 { glyphIndex(forValue: scalar.value) }

    func glyphIndex(forValue value: UInt32) -> UInt32 {
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
        var chosen: UInt16 = 0
        if let fallback {
            for candidate in fallback.candidates(containing: value) {
                if let number = open(candidate, of: fallback) {
                    chosen = number
                    break
                }
            }
        }
        numberOfMissingScalar[value] = chosen
        return chosen
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

    /// The glyph, rasterized on first use.
    public func glyph(_ index: UInt32) -> Glyph {
        if let glyph = glyphs[index] { return glyph }
        let glyph = rasterize(index)
        glyphs[index] = glyph
        return glyph
    }

    private func rasterize(_ index: UInt32) -> Glyph {
        rasterizedGlyphCount += 1
        guard FT_Load_Glyph(face, index, FT_Int32(FT_LOAD_RENDER)) == 0 else {
            return Glyph(mask: nil, bearingX: 0, bearingY: 0, advance: 0)
        }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let advance = Double(slot.advance.x) / 64
        let width = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        guard width > 0, rows > 0, bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), let source = bitmap.buffer,
            let mask = try? PixmanImage(format: PIXMAN_a8, width: width, height: rows), let target = mask.pixels
        else {
            return Glyph(mask: nil, bearingX: Int(slot.bitmap_left), bearingY: Int(slot.bitmap_top), advance: advance)
        }
        // FreeType's pitch may differ from pixman's 4-byte-aligned stride: copy row by row.
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            (target + row * mask.stride).copyMemory(from: source + row * pitch, byteCount: width)
        }
        return Glyph(mask: mask, bearingX: Int(slot.bitmap_left), bearingY: Int(slot.bitmap_top), advance: advance)
    }
}
