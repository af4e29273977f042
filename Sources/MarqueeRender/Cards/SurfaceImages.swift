import CPixman

/// Card surfaces (the rounded fill with its boxes) painted once and shared by every card with
/// the same size, fill and boxes. A surface larger than `wholePixelLimit` is kept in tiles of
/// `tileRows` rows, each painted the first time a frame shows it: a card 100,000 pixels tall
/// (a deck may ask for one) then costs the few tiles in view, where its whole surface was
/// 768 MB at 1920 pixels wide.
final class SurfaceImages {
    /// A surface's image from `firstRow` (0 for a whole surface).
    private struct Key: Hashable {
        var surface: CardSurface
        var firstRow: Int
    }

    /// Surfaces of up to this many pixels are painted whole (16 MB: a 1920-pixel-wide card up to
    /// 2,184 rows tall), so the common case keeps its single image and single lookup.
    static let wholePixelLimit = 4 << 20
    static let tileRows = 512
    /// Past this many kept bytes (or 32 images, for decks with many distinct sizes or colours)
    /// every image is dropped and painted again when next shown.
    static let budgetBytes = 32 << 20
    private static let countLimit = 32

    private var images: [Key: PixmanImage] = [:]
    private(set) var bytes = 0

    static func isTiled(_ surface: CardSurface) -> Bool { surface.width * surface.height > wholePixelLimit }

    func removeAll() {
        images.removeAll()
        bytes = 0
    }

    /// The whole surface as one image (for a surface that is not tiled).
    func whole(_ surface: CardSurface) throws(RenderError) -> PixmanImage {
        precondition(!Self.isTiled(surface), "SurfaceImages: a tiled surface has no whole image")
        return try image(surface, rows: 0..<surface.height)
    }

    /// Composites the surface's `columns` x `rows` (card pixels) OVER `target`, the card's top
    /// left corner at (x, y). A whole surface is composited in one call, as it is; a tiled one
    /// only in the rows `target` can show (its height and its clip rows), tile by tile.
    func composite(
        _ surface: CardSurface, columns: Range<Int>, rows: Range<Int>, x: Int32, y: Int32,
        onto target: PixmanImage
    ) throws(RenderError) {
        guard !columns.isEmpty, !rows.isEmpty else { return }
        guard Self.isTiled(surface) else {
            let image = try whole(surface)
            pixman_image_composite32(
                PIXMAN_OP_OVER, image.handle, nil, target.handle, Int32(columns.lowerBound), Int32(rows.lowerBound),
                0, 0, x + Int32(columns.lowerBound), y + Int32(rows.lowerBound), Int32(columns.count),
                Int32(rows.count))
            return
        }
        var visible = rows.clamped(to: -Int(y)..<(target.height - Int(y)))
        if let clip = target.clipRows {
            visible = visible.clamped(to: (clip.lowerBound - Int(y))..<(clip.upperBound - Int(y)))
        }
        guard !visible.isEmpty else { return }
        var tileTop = visible.lowerBound / Self.tileRows * Self.tileRows
        while tileTop < visible.upperBound {
            let tile = tileTop..<min(tileTop + Self.tileRows, surface.height)
            let drawn = tile.clamped(to: visible)
            let image = try image(surface, rows: tile)
            pixman_image_composite32(
                PIXMAN_OP_OVER, image.handle, nil, target.handle, Int32(columns.lowerBound),
                Int32(drawn.lowerBound - tile.lowerBound), 0, 0, x + Int32(columns.lowerBound),
                y + Int32(drawn.lowerBound), Int32(columns.count), Int32(drawn.count))
            tileTop = tile.upperBound
        }
    }

    private func image(_ surface: CardSurface, rows: Range<Int>) throws(RenderError) -> PixmanImage {
        let key = Key(surface: surface, firstRow: rows.lowerBound)
        if let known = images[key] { return known }
        // Every pixel is painted by SurfacePainter, so the memory need not be zeroed first.
        let image = try PixmanImage(format: PIXMAN_a8r8g8b8, width: surface.width, height: rows.count, zeroed: false)
        SurfacePainter.paint(surface, into: image, firstRow: rows.lowerBound)
        if images.count >= Self.countLimit || bytes + image.byteCount > Self.budgetBytes { removeAll() }
        images[key] = image
        bytes += image.byteCount
        return image
    }
}
