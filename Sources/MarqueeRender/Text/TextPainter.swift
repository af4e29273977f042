import CPixman

/// Composites laid-out text onto a pixman image: each glyph's coverage mask straight from the
/// glyph cache, through a solid source of the text color (`pixman_image_composite32`, OVER), or,
/// with no color, as coverage added onto an 8-bit layer (which is later composited with the color).
enum TextPainter {
    static func draw(
        _ line: TextLine, face: FontFace, color: PixmanImage?, onto target: PixmanImage, x originX: Double,
        baseline: Double
    ) {
        let baselineY = Int(baseline.rounded())
        for placed in line.glyphs {
            let glyph = face.glyph(placed.index)
            guard let mask = glyph.mask else { continue }
            let x = Int((originX + placed.x).rounded()) + glyph.bearingX
            let y = baselineY - glyph.bearingY
            if let color {
                pixman_image_composite32(
                    PIXMAN_OP_OVER, color.handle, mask.handle, target.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(mask.width), Int32(mask.height))
            } else {
                // Coverage adds up (saturating) as cairo accumulates glyph masks: the same as OVER
                // except where two glyphs overlap, and pixman has a fast path for ADD of A8 onto
                // A8 but not for OVER, whose general path cost 5x more (callgrind, cards-1080p).
                pixman_image_composite32(
                    PIXMAN_OP_ADD, mask.handle, nil, target.handle, 0, 0, 0, 0, Int32(x), Int32(y), Int32(mask.width),
                    Int32(mask.height))
            }
        }
    }
}
