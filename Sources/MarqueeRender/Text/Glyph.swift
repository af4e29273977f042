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
