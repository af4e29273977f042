import CPixman
import MarqueeCore

/// Draws section headers: the title on one line, vertically centered on the cap height (about
/// 0.7 of the size), with the item's presented opacity, scale and turn.
///
/// A header drawn as it is (nearly always) is drawn glyph by glyph straight onto the frame. One
/// that is scaled, turned or faded (appearing, or falling with a deleted section) is drawn as
/// cards are: its title rasterized once into an image with a margin of one font size all round
/// (glyphs reach past the row), composited with the same transform, filter and opacity mask by
/// `CardCompositor`.
final class HeaderPainter {
    private struct LineKey: Hashable {
        var title: String
        var width: Double
        var direction: TextDirection
    }
    /// Titles laid out once per title and width, not on every frame they are drawn.
    private var lines: [LineKey: TextLine?] = [:]

    private struct ImageKey: Hashable {
        var title: String
        var width: Int
        var height: Int
        var lineX: Double
    }
    private var images: [ImageKey: PixmanImage] = [:]

    /// Forgets everything (the style, and so the font or color, changed).
    func removeAll() {
        lines.removeAll()
        images.removeAll()
    }

    /// Draws `title` for `item` in `face` through `color` (an opaque solid image), in the style's
    /// paragraph `direction` and `align` (a right-to-left title sits at the right by default).
    /// `rows`, when given, is the band being drawn again (the target is clipped to it).
    func draw(
        _ title: String, _ item: DisplayList.Item, face: FontFace, color: PixmanImage, direction: TextDirection,
        align: TextAlign, onto target: PixmanImage, rows: Range<Int>?
    ) throws(RenderError) {
        guard item.alpha > 0, let line = line(title, width: item.frame.width, face: face, direction: direction)
        else { return }
        let size = Double(face.pixelSize)
        let lineX = line.offset(in: item.frame.width, align: align)
        if item.scale == 1, item.rotation == 0, item.alpha >= 1 {
            let baseline = item.frame.y + item.frame.height / 2 + 0.35 * size
            TextPainter.draw(line, face: face, color: color, onto: target, x: item.frame.x + lineX, baseline: baseline)
            return
        }
        let margin = face.pixelSize
        let width = Int(item.frame.width.rounded()) + 2 * margin
        let height = Int(item.frame.height.rounded()) + 2 * margin
        guard width > 2 * margin, height > 2 * margin else { return }
        let key = ImageKey(title: title, width: width, height: height, lineX: lineX)
        let raster: PixmanImage
        if let cached = images[key] {
            raster = cached
        } else {
            // Few headers transform at once; a deck that keeps renaming them stays bounded.
            if images.count >= 16 { images.removeAll() }
            raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let baseline = Double(margin) + item.frame.height / 2 + 0.35 * size
            TextPainter.draw(
                line, face: face, color: color, onto: raster, x: Double(margin) + lineX, baseline: baseline)
            images[key] = raster
        }
        // The image's frame: the header's, grown by the margin, so both have the same center.
        var placed = item
        placed.frame = Rect(
            x: item.frame.x - Double(margin), y: item.frame.y - Double(margin), width: Double(width),
            height: Double(height))
        try CardCompositor.draw(raster, placed, onto: target, within: rows)
    }

    private func line(_ title: String, width: Double, face: FontFace, direction: TextDirection) -> TextLine? {
        let key = LineKey(title: title, width: width, direction: direction)
        if let line = lines[key] { return line }
        // Titles change rarely; a deck that keeps renaming them should not grow this without bound.
        if lines.count >= 256 { lines.removeAll() }
        let line = TextLayout.lines(title, face: face, maximumWidth: width, maximumLines: 1, direction: direction).first
        lines[key] = line
        return line
    }
}
