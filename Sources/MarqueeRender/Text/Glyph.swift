import CPixman

/// One rasterized glyph: an 8-bit coverage mask as a pixman image, and where to put it.
public final class Glyph {
    /// Coverage mask (PIXMAN_a8), nil for glyphs with no pixels (space).
    public let mask: PixmanImage?
    /// Pixels from the pen position to the mask's left edge.
    public let bearingX: Int
    /// Pixels from the baseline up to the mask's top edge.
    public let bearingY: Int
    /// How far the pen moves, in pixels (fractional: hinted advances are whole pixels,
    /// but FreeType reports them in 1/64 px).
    public let advance: Double

    init(mask: PixmanImage?, bearingX: Int, bearingY: Int, advance: Double) {
        self.mask = mask
        self.bearingX = bearingX
        self.bearingY = bearingY
        self.advance = advance
    }
}
