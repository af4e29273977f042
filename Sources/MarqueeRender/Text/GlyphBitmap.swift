import CFreeType
import CPixman
import Glibc

/// Turns the bitmap FreeType rendered into a glyph slot into a pixman image: 8-bit coverage
/// (`FT_PIXEL_MODE_GRAY`) or colour (`FT_PIXEL_MODE_BGRA`, premultiplied B, G, R, A bytes, which is
/// pixman's a8r8g8b8 on a little-endian machine), scaled to the text size when the face draws from
/// a fixed bitmap strike (a CBDT emoji font has only its 109 px strike).
enum GlyphBitmap {
    /// The slot's bitmap as a glyph, its image and metrics multiplied by `scale`; nil when the
    /// bitmap is empty or in a pixel mode that is neither coverage nor colour.
    static func glyph(from slot: FT_GlyphSlotRec, scale: Double) -> Glyph? {
        let bitmap = slot.bitmap
        let width = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        let format: pixman_format_code_t
        let bytesPerPixel: Int
        switch bitmap.pixel_mode {
        case UInt8(FT_PIXEL_MODE_GRAY.rawValue): (format, bytesPerPixel) = (PIXMAN_a8, 1)
        case UInt8(FT_PIXEL_MODE_BGRA.rawValue): (format, bytesPerPixel) = (PIXMAN_a8r8g8b8, 4)
        default: return nil
        }
        guard width > 0, rows > 0, let source = bitmap.buffer,
            let image = try? PixmanImage(format: format, width: width, height: rows), let target = image.pixels
        else { return nil }
        // FreeType's pitch may differ from pixman's 4-byte-aligned stride: copy row by row.
        let pitch = Int(bitmap.pitch)
        for row in 0..<rows {
            (target + row * image.stride).copyMemory(from: source + row * pitch, byteCount: width * bytesPerPixel)
        }
        let scaled = scale == 1 ? image : resized(image, by: scale) ?? image
        let advance = Double(slot.advance.x) / 64 * scale
        let left = Int((Double(slot.bitmap_left) * scale).rounded())
        let top = Int((Double(slot.bitmap_top) * scale).rounded())
        return format == PIXMAN_a8
            ? Glyph(mask: scaled, bearingX: left, bearingY: top, advance: advance)
            : Glyph(mask: nil, color: scaled, bearingX: left, bearingY: top, advance: advance)
    }

    /// `image` drawn `scale` times its size with pixman. Shrinking (the usual case: a 109 px
    /// strike drawn at 20 to 60 px) averages each target pixel's whole footprint with a separable
    /// box convolution, as cairo's GOOD filter does; nearest or bilinear sampling would skip most
    /// source pixels and alias the emoji's outlines. Enlarging is bilinear.
    static func resized(_ image: PixmanImage, by scale: Double) -> PixmanImage? {
        let width = max(1, Int((Double(image.width) * scale).rounded(.up)))
        let height = max(1, Int((Double(image.height) * scale).rounded(.up)))
        guard let target = try? PixmanImage(format: image.format, width: width, height: height) else { return nil }
        let inverse = marquee_pixman_double_to_fixed(1 / scale)
        var transform = pixman_transform()
        pixman_transform_init_scale(&transform, inverse, inverse)
        pixman_image_set_transform(image.handle, &transform)
        if scale < 0.75 {
            var count: Int32 = 0
            if let parameters = pixman_filter_create_separable_convolution(
                &count, inverse, inverse, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX,
                2, 2)
            {
                pixman_image_set_filter(image.handle, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, parameters, count)
                free(parameters)
            }
        } else {
            pixman_image_set_filter(image.handle, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        pixman_image_composite32(
            PIXMAN_OP_SRC, image.handle, nil, target.handle, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        return target
    }
}
