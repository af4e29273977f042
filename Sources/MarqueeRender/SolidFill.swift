import CFill
import CPixman

/// A box of one colour written into a frame, as `pixman_image_fill_boxes` with `PIXMAN_OP_SRC`
/// writes it (the same pixel, within the image's clip rows), through the C library's `wmemset`
/// row by row: pixman's SSE2 fill stores 16 bytes an instruction, the C library's picks the CPU's
/// widest stores (32 bytes with AVX2). Rows of at most 16 pixels are stored in place
/// (`marquee_fill_box32`), a call a row costing more than the pixels. The background and the
/// cards' interiors are most of a frame's pixels: about a million of pixman's instructions a
/// 1080p frame (callgrind).
enum SolidFill {
    /// The pixel pixman writes for `color` into an a8r8g8b8 or x8r8g8b8 image (its
    /// `color_to_uint32`: each channel's high byte).
    static func pixel(_ color: pixman_color_t) -> UInt32 {
        UInt32(color.alpha >> 8) << 24 | UInt32(color.red >> 8) << 16 | UInt32(color.green & 0xFF00)
            | UInt32(color.blue >> 8)
    }

    /// Fills `box` of `image` with `color`, within the image and its clip rows (pixman clips a
    /// filled box to the clip region only). Images of other formats go to pixman.
    static func fill(_ box: pixman_box32_t, with color: pixman_color_t, of image: PixmanImage) {
        let format = image.format
        guard format == PIXMAN_x8r8g8b8 || format == PIXMAN_a8r8g8b8, let data = pixman_image_get_data(image.handle)
        else {
            var box = box
            var color = color
            pixman_image_fill_boxes(PIXMAN_OP_SRC, image.handle, &color, 1, &box)
            return
        }
        var top = max(Int(box.y1), 0)
        var bottom = min(Int(box.y2), image.height)
        if let rows = image.clipRows {
            top = max(top, rows.lowerBound)
            bottom = min(bottom, rows.upperBound)
        }
        let left = max(Int(box.x1), 0)
        let right = min(Int(box.x2), image.width)
        guard bottom > top, right > left else { return }
        let value = pixel(color)
        let stride = image.stride / 4
        let row = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self) + top * stride + left
        marquee_fill_box32(row, stride, value, right - left, bottom - top)
    }
}
