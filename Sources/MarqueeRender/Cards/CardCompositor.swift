import CPixman
import Glibc
import MarqueeCore

/// Composites a card's cached raster onto the frame with its presented attributes: translated
/// by whole pixels when it is neither scaled nor rotated (the common, cheap case), otherwise with
/// a pixman affine transform and bilinear filtering. Opacity goes through a solid mask; a tint is
/// laid over the card through the card's own alpha, so it colors the card and not its corners.
enum CardCompositor {
    static func draw(_ raster: PixmanImage, _ item: DisplayList.Item, onto target: PixmanImage) throws(RenderError) {
        guard item.alpha > 0, item.scale > 1e-4 else { return }
        let opacity = min(item.alpha, 1)
        let mask =
            opacity < 1
            ? try PixmanImage(
                solid: pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((opacity * 65535).rounded()))) : nil
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
        setTransform(of: raster, for: item)
        // A turned card covers a fraction of its bounding box; clipping the target to the rows it
        // crosses keeps pixman's (slow, general) bilinear fetch off the empty corners.
        var rows = pixman_region32_t()
        let clipped = item.rotation != 0 && coverage(item, raster: raster, within: box, into: &rows)
        if clipped { pixman_image_set_clip_region32(target.handle, &rows) }
        defer {
            pixman_image_set_transform(raster.handle, nil)
            pixman_image_set_filter(raster.handle, PIXMAN_FILTER_NEAREST, nil, 0)
            if clipped {
                pixman_image_set_clip_region32(target.handle, nil)
                pixman_region32_fini(&rows)
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

    /// pixman maps destination pixels to source pixels, so the raster gets the inverse of
    /// "scale about the center, rotate clockwise about the center, place at the frame":
    /// card = T(w/2, h/2) · S(1/scale) · R(-rotation) · T(-center).
    private static func setTransform(of raster: PixmanImage, for item: DisplayList.Item) {
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
        pixman_image_set_transform(raster.handle, &fixed)
        pixman_image_set_filter(raster.handle, PIXMAN_FILTER_BILINEAR, nil, 0)
    }

    /// The transformed card's outline as one span of columns per row of `box`, widened by what the
    /// bilinear filter reaches (a source pixel, at most `scale` target pixels, plus one). Fills
    /// `region` and returns true, or false (region untouched) when no row is crossed.
    static func coverage(
        _ item: DisplayList.Item, raster: PixmanImage, within box: (x: Int32, y: Int32, width: Int32, height: Int32),
        into region: inout pixman_region32_t
    ) -> Bool {
        let halfWidth = Double(raster.width) / 2 * item.scale
        let halfHeight = Double(raster.height) / 2 * item.scale
        let centerX = item.frame.x + item.frame.width / 2
        let centerY = item.frame.y + item.frame.height / 2
        let cosine = cos(item.rotation)
        let sine = sin(item.rotation)
        // Corners in order around the card, turned clockwise by the rotation (y points down),
        // matching the inverse transform setTransform gives pixman.
        let corners = [
            (-halfWidth, -halfHeight), (halfWidth, -halfHeight), (halfWidth, halfHeight), (-halfWidth, halfHeight),
        ]
        .map { (x, y) in (x: centerX + cosine * x - sine * y, y: centerY + sine * x + cosine * y) }
        let reach = max(1, item.scale).rounded(.up) + 1
        var boxes: [pixman_box32_t] = []
        boxes.reserveCapacity(Int(box.height))
        for row in box.y..<(box.y + box.height) {
            let top = Double(row) - reach
            let bottom = Double(row + 1) + reach
            var left = Double.infinity
            var right = -Double.infinity
            for index in 0..<4 {
                let a = corners[index]
                let b = corners[(index + 1) % 4]
                guard max(a.y, b.y) >= top, min(a.y, b.y) <= bottom else { continue }
                // The part of edge a→b inside the band top...bottom.
                var low = 0.0
                var high = 1.0
                if a.y != b.y {
                    let entering = (top - a.y) / (b.y - a.y)
                    let leaving = (bottom - a.y) / (b.y - a.y)
                    low = max(0, min(entering, leaving))
                    high = min(1, max(entering, leaving))
                }
                for t in [low, high] {
                    let x = a.x + (b.x - a.x) * t
                    left = min(left, x)
                    right = max(right, x)
                }
            }
            guard left <= right else { continue }
            let x1 = max(box.x, Int32((left - reach).rounded(.down)))
            let x2 = min(box.x + box.width, Int32((right + reach).rounded(.up)))
            if x2 > x1 { boxes.append(pixman_box32_t(x1: x1, y1: row, x2: x2, y2: row + 1)) }
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
