import CPixman
import Glibc
import MarqueeCore

/// Composites a card's cached raster onto the frame with its presented attributes: translated
/// by whole pixels when it is neither scaled nor rotated (the common, cheap case); turned, by
/// `TurnedCardCompositor`; otherwise with a pixman affine transform and bilinear filtering.
/// Opacity goes through a solid mask; a tint is laid over the card through the card's own alpha,
/// so it colors the card and not its corners.
enum CardCompositor {
    /// Who composites turned cards: Marquee's own compositor, or pixman (what the former is
    /// tested against, and what tinted turned cards use), within the card's outline or over its
    /// whole bounding box (what the outline is tested against: it must leave out only pixels
    /// the card does not touch).
    enum TurnedCardPath { case own, pixman, pixmanWithoutOutline }

    /// `band`, when given, is the rows being drawn again, the only ones drawn into: the target's
    /// clip is set to them, and whatever this sets as the clip is put back to them afterwards.
    static func draw(
        _ raster: PixmanImage, _ item: DisplayList.Item, onto target: PixmanImage, within band: Range<Int>? = nil,
        runs: UniformBlockRuns? = nil, turnedCards path: TurnedCardPath = .own
    ) throws(RenderError) {
        guard item.alpha > 0, item.scale > 1e-4 else { return }
        let opacity = min(item.alpha, 1)
        let mask =
            opacity < 1
            ? try PixmanImage(solid: pixman_color_t(red: 0, green: 0, blue: 0, alpha: solidMaskAlpha(opacity))) : nil
        let tint = try item.tint.map { color throws(RenderError) in
            try PixmanImage(solid: pixman_color_t(color, opacity: opacity))
        }
        if item.scale == 1, item.rotation == 0 {
            let x = Int32(item.frame.x.rounded())
            let y = Int32(item.frame.y.rounded())
            let width = Int32(raster.width)
            let height = Int32(raster.height)
            pixman_image_composite32(
                PIXMAN_OP_OVER, raster.handle, mask?.handle, target.handle, 0, 0, 0, 0, x, y, width, height)
            if let tint {
                pixman_image_composite32(
                    PIXMAN_OP_OVER, tint.handle, raster.handle, target.handle, 0, 0, 0, 0, x, y, width, height)
            }
            return
        }
        guard let box = boundingBox(item, raster: raster, clip: target) else { return }
        let transform = inverseTransform(for: item, raster: raster)
        var rows = box.y..<(box.y + box.height)
        if let band { rows = rows.clamped(to: Int32(band.lowerBound)..<Int32(band.upperBound)) }
        guard !rows.isEmpty else { return }
        let columns = box.x..<(box.x + box.width)
        // Scaled but unturned cards go to pixman's SSE2 scaled bilinear path unless the raster's
        // uniform blocks are known: then runs of one color are blended without interpolating.
        if item.rotation != 0 || runs != nil, tint == nil, path == .own, raster.format == PIXMAN_a8r8g8b8,
            target.format == PIXMAN_x8r8g8b8 || target.format == PIXMAN_a8r8g8b8
        {
            let alpha = UInt32(solidMaskAlpha(opacity) >> 8)
            TurnedCardCompositor.composite(
                raster, transform: transform, opacity: alpha, rows: rows, columns: columns,
                runs: runs?.maps(of: raster, opacity: alpha), onto: target)
            return
        }
        var fixed = transform
        pixman_image_set_transform(raster.handle, &fixed)
        pixman_image_set_filter(raster.handle, PIXMAN_FILTER_BILINEAR, nil, 0)
        // Clipped to the turned card's spans, as the own compositor is, keeping pixman's (slow,
        // general) bilinear fetch off the empty corners.
        var spans = pixman_region32_t()
        let clipped =
            item.rotation != 0 && path != .pixmanWithoutOutline
            && outlineRegion(item, raster: raster, rows: rows, columns: columns, &spans)
        if clipped { pixman_image_set_clip_region32(target.handle, &spans) }
        defer {
            pixman_image_set_transform(raster.handle, nil)
            pixman_image_set_filter(raster.handle, PIXMAN_FILTER_NEAREST, nil, 0)
            if clipped {
                target.clip(toRows: band)
                pixman_region32_fini(&spans)
            }
        }
        pixman_image_composite32(
            PIXMAN_OP_OVER, raster.handle, mask?.handle, target.handle, box.x, box.y, 0, 0, box.x, box.y, box.width,
            box.height)
        if let tint {
            pixman_image_composite32(
                PIXMAN_OP_OVER, tint.handle, raster.handle, target.handle, 0, 0, box.x, box.y, box.x, box.y, box.width,
                box.height)
        }
    }

    /// The alpha of the solid mask that applies `opacity`, 16 bits as pixman colors have.
    private static func solidMaskAlpha(_ opacity: Double) -> UInt16 { UInt16((opacity * 65535).rounded()) }

    /// Maps destination pixels to source pixels (pixman samples that way), so it is the inverse
    /// of "scale about the center, rotate clockwise about the center, place at the frame":
    /// card = T(w/2, h/2) · S(1/scale) · R(-rotation) · T(-center).
    private static func inverseTransform(for item: DisplayList.Item, raster: PixmanImage) -> pixman_transform {
        let centerX = item.frame.x + item.frame.width / 2
        let centerY = item.frame.y + item.frame.height / 2
        var transform = pixman_f_transform()
        pixman_f_transform_init_identity(&transform)
        pixman_f_transform_translate(&transform, nil, -centerX, -centerY)
        pixman_f_transform_rotate(&transform, nil, cos(item.rotation), -sin(item.rotation))
        pixman_f_transform_scale(&transform, nil, 1 / item.scale, 1 / item.scale)
        pixman_f_transform_translate(&transform, nil, Double(raster.width) / 2, Double(raster.height) / 2)
        var fixed = pixman_transform()
        pixman_transform_from_pixman_f_transform(&fixed, &transform)
        return fixed
    }

    /// The turned card's spans as a pixman region; false (region untouched) when there are none.
    private static func outlineRegion(
        _ item: DisplayList.Item, raster: PixmanImage, rows: Range<Int32>, columns: Range<Int32>,
        _ region: inout pixman_region32_t
    ) -> Bool {
        let outline = TurnedCardOutline(item, rasterWidth: raster.width, rasterHeight: raster.height)
        var boxes: [pixman_box32_t] = []
        boxes.reserveCapacity(rows.count)
        for row in rows {
            if let span = outline.span(ofRow: row, within: columns) {
                boxes.append(pixman_box32_t(x1: span.x1, y1: row, x2: span.x2, y2: row + 1))
            }
        }
        guard !boxes.isEmpty else { return false }
        pixman_region32_init_rects(&region, boxes, Int32(boxes.count))
        return true
    }

    /// The pixels the transformed card can touch, clipped to the target; nil when none.
    private static func boundingBox(_ item: DisplayList.Item, raster: PixmanImage, clip target: PixmanImage)
        -> (x: Int32, y: Int32, width: Int32, height: Int32)?
    {
        let halfWidth = Double(raster.width) / 2 * item.scale
        let halfHeight = Double(raster.height) / 2 * item.scale
        let cosine = abs(cos(item.rotation))
        let sine = abs(sin(item.rotation))
        let extentX = halfWidth * cosine + halfHeight * sine
        let extentY = halfWidth * sine + halfHeight * cosine
        let centerX = item.frame.x + item.frame.width / 2
        let centerY = item.frame.y + item.frame.height / 2
        let left = max(0, Int((centerX - extentX).rounded(.down)) - 1)
        let top = max(0, Int((centerY - extentY).rounded(.down)) - 1)
        let right = min(target.width, Int((centerX + extentX).rounded(.up)) + 1)
        let bottom = min(target.height, Int((centerY + extentY).rounded(.up)) + 1)
        guard right > left, bottom > top else { return nil }
        return (Int32(left), Int32(top), Int32(right - left), Int32(bottom - top))
    }
}
