import CFreeType
import CPixman

/// One font file at one pixel size (an `FT_Face`), with its glyph cache: every glyph is
/// rasterized once (`FT_Load_Glyph` with `FT_LOAD_RENDER`) and kept for the face's lifetime.
public final class FontFace {
    public let path: String
    public let pixelSize: Int
    private let library: FreeTypeLibrary
    private let face: FT_Face
    private let hasKerning: Bool
    private var glyphIndexOfScalar: [UInt32: UInt32] = [:]
    private var glyphs: [UInt32: Glyph] = [:]
    /// How many glyphs were rasterized (the cache's misses); tests check it never repeats work.
    public private(set) var rasterizedGlyphCount = 0

    /// Opens `path` (`FT_New_Face`) and sets the size (`FT_Set_Pixel_Sizes`).
    public init(library: FreeTypeLibrary, path: String, pixelSize: Int) throws(RenderError) {
        var face: FT_Face?
        let status = FT_New_Face(library.handle, path, 0, &face)
        guard status == 0, let face else {
            throw RenderError(
                .fontUnreadable, "cannot read font file \(path) (FreeType error \(status): missing or not a font)")
        }
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize))) == 0 else {
            FT_Done_Face(face)
            throw RenderError(.fontUnreadable, "font \(path) cannot be drawn at \(pixelSize) px")
        }
        self.library = library
        self.face = face
        self.path = path
        self.pixelSize = pixelSize
        self.hasKerning = marquee_ft_has_kerning(face) != 0
    }

    deinit { FT_Done_Face(face) }

    /// The glyph index for a character (`FT_Get_Char_Index`), 0 for characters the font lacks.
    public func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        if let index = glyphIndexOfScalar[scalar.value] { return index }
        let index = UInt32(FT_Get_Char_Index(face, FT_ULong(scalar.value)))
        glyphIndexOfScalar[scalar.value] = index
        return index
    }

    /// Kerning between two glyphs in pixels (`FT_Get_Kerning`), 0 where the font has none.
    public func kerning(_ left: UInt32, _ right: UInt32) -> Double {
        guard hasKerning, left != 0, right != 0 else { return 0 }
        var delta = FT_Vector()
        guard FT_Get_Kerning(face, left, right, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 else { return 0 }
        return Double(delta.x) / 64
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
