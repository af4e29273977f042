import CPixman

/// One rasterized glyph: an 8-bit coverage mask, or for a colour glyph (an emoji) its own
/// premultiplied ARGB pixels, as a pixman image, and where to put it.
public final class Glyph {
    /// Coverage mask (PIXMAN_a8), nil for glyphs with no pixels (space) and for colour glyphs.
    public let mask: PixmanImage?
    /// A colour glyph's pixels (PIXMAN_a8r8g8b8, premultiplied), already at the text size; drawn
    /// OVER in its own colours, never through the text color. Nil for ordinary glyphs.
    public let color: PixmanImage?
    /// Pixels from the pen position to the image's left edge.
    public let bearingX: Int
    /// Pixels from the baseline up to the image's top edge.
    public let bearingY: Int
    /// How far the pen moves, in pixels (fractional: hinted advances are whole pixels,
    /// but FreeType reports them in 1/64 px).
    public let advance: Double
    /// Whether pixman's glyph cache was given a copy of the mask (`GlyphBudget.chargeCopy`): it
    /// is counted in the budget and dropped from pixman's cache with the glyph.
    var pixmanCopy = false

    init(mask: PixmanImage?, color: PixmanImage? = nil, bearingX: Int, bearingY: Int, advance: Double) {
        self.mask = mask
        self.color = color
        self.bearingX = bearingX
        self.bearingY = bearingY
        self.advance = advance
    }

    /// Whichever image the glyph has (its mask or its colour pixels).
    var image: PixmanImage? { mask ?? color }
}

/// A glyph's coverage mask as plain values (its bytes stay owned by the glyph's mask image, which
/// its face keeps at least until the next frame: `GlyphTable`, `GlyphBudget`): what text drawn through a fill's table reads a glyph at,
/// without retaining and releasing the glyph and its image, which took about a tenth of a
/// cards-1080p band's time (atomic reference counts; perf).
struct GlyphMask {
    /// Nil for a glyph with no coverage mask (a space, a colour glyph).
    let coverage: UnsafePointer<UInt8>?
    let width: Int
    let height: Int
    /// Bytes per row.
    let stride: Int
    let bearingX: Int
    let bearingY: Int

    init(_ glyph: Glyph) {
        let mask = glyph.mask
        coverage = mask?.pixels.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
        width = mask?.width ?? 0
        height = mask?.height ?? 0
        stride = mask?.stride ?? 0
        bearingX = glyph.bearingX
        bearingY = glyph.bearingY
    }
}
