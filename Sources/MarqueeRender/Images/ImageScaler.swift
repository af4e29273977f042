import CPixman
import Glibc

/// Scales a decoded picture into a request's box with pixman's separable-convolution filter, which
/// integrates over each output pixel's footprint: shrinking averages every source pixel that falls
/// in it (a box filter, the area average), where bilinear or nearest sampling would skip most of
/// them and shimmer. Enlarging interpolates linearly.
public enum ImageScaler {
    /// Where the picture lands in the box and which part of it shows: `placed` in box pixels, and
    /// the source scale (source pixels per box pixel) and offset of the mapping.
    struct Placement: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var scaleX: Double
        var scaleY: Double
        /// Source coordinates of the placed area's top-left corner.
        var sourceX: Double
        var sourceY: Double
    }

    static func placement(source: (width: Int, height: Int), box: (width: Int, height: Int), fit: ImageFit)
        -> Placement
    {
        let sw = Double(source.width)
        let sh = Double(source.height)
        let bw = Double(box.width)
        let bh = Double(box.height)
        switch fit {
        case .fill:
            return Placement(
                x: 0, y: 0, width: box.width, height: box.height, scaleX: sw / bw, scaleY: sh / bh, sourceX: 0,
                sourceY: 0)
        case .contain:
            let scale = min(bw / sw, bh / sh)
            let width = min(box.width, max(1, Int((sw * scale).rounded())))
            let height = min(box.height, max(1, Int((sh * scale).rounded())))
            return Placement(
                x: (box.width - width) / 2, y: (box.height - height) / 2, width: width, height: height,
                scaleX: sw / Double(width), scaleY: sh / Double(height), sourceX: 0, sourceY: 0)
        case .cover:
            let scale = max(bw / sw, bh / sh)
            return Placement(
                x: 0, y: 0, width: box.width, height: box.height, scaleX: 1 / scale, scaleY: 1 / scale,
                sourceX: (sw - bw / scale) / 2, sourceY: (sh - bh / scale) / 2)
        }
    }

    /// The size (in upright source pixels) the picture is drawn at for `fit` in the box: what
    /// JPEG decoding at reduced size must keep.
    static func drawnSize(source: (width: Int, height: Int), box: (width: Int, height: Int), fit: ImageFit)
        -> (width: Int, height: Int)
    {
        let placed = placement(source: source, box: box, fit: fit)
        return (
            Int((Double(source.width) / placed.scaleX).rounded(.up)),
            Int((Double(source.height) / placed.scaleY).rounded(.up))
        )
    }

    /// The request's image: `width` x `height`, transparent outside the placed picture, corners
    /// rounded by `radius` (anti-aliased, in alpha), premultiplied a8r8g8b8.
    public static func scale(_ source: PixmanImage, to request: ImageRequest) throws(ImageError) -> PixmanImage {
        guard request.width > 0, request.height > 0 else { throw ImageError("the image's box is empty") }
        let target: PixmanImage
        do {
            target = try PixmanImage(format: PIXMAN_a8r8g8b8, width: request.width, height: request.height)
        } catch {
            throw ImageError(error.message)
        }
        let placed = placement(
            source: (source.width, source.height), box: (request.width, request.height), fit: request.fit)
        // pixman maps each destination pixel centre through the transform into the source; the
        // composite's source origin is 0, so the transform carries the whole mapping.
        var transform = pixman_transform()
        pixman_transform_init_scale(
            &transform, marquee_pixman_double_to_fixed(placed.scaleX), marquee_pixman_double_to_fixed(placed.scaleY))
        transform.matrix.0.2 = marquee_pixman_double_to_fixed(placed.sourceX)
        transform.matrix.1.2 = marquee_pixman_double_to_fixed(placed.sourceY)
        pixman_image_set_transform(source.handle, &transform)
        // Edge pixels repeat outward, so the picture's border is not blended with transparency.
        pixman_image_set_repeat(source.handle, PIXMAN_REPEAT_PAD)
        var count: Int32 = 0
        if placed.scaleX == 1, placed.scaleY == 1, placed.sourceX == placed.sourceX.rounded(),
            placed.sourceY == placed.sourceY.rounded()
        {
            // Pixel for pixel (a picture decoded at its box's size): a plain copy, no filtering.
            pixman_image_set_filter(source.handle, PIXMAN_FILTER_NEAREST, nil, 0)
        } else if let parameters = pixman_filter_create_separable_convolution(
            &count, marquee_pixman_double_to_fixed(placed.scaleX), marquee_pixman_double_to_fixed(placed.scaleY),
            reconstruction(placed.scaleX), reconstruction(placed.scaleY), sampling(placed.scaleX),
            sampling(placed.scaleY), 6, 6)
        {
            pixman_image_set_filter(source.handle, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, parameters, count)
            free(parameters)
        } else {
            pixman_image_set_filter(source.handle, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        pixman_image_composite32(
            PIXMAN_OP_SRC, source.handle, nil, target.handle, 0, 0, 0, 0, Int32(placed.x), Int32(placed.y),
            Int32(placed.width), Int32(placed.height))
        pixman_image_set_transform(source.handle, nil)
        roundCorners(
            target, x: placed.x, y: placed.y, width: placed.width, height: placed.height, radius: request.radius)
        return target
    }

    /// Shrinking (more than one source pixel per output pixel): each source pixel is a square
    /// (box reconstruction) and each output pixel averages the squares under its footprint (box
    /// sampling). Enlarging: linear interpolation between source pixels, sampled at the centre.
    private static func reconstruction(_ scale: Double) -> pixman_kernel_t {
        scale > 1 ? PIXMAN_KERNEL_BOX : PIXMAN_KERNEL_LINEAR
    }

    private static func sampling(_ scale: Double) -> pixman_kernel_t {
        scale > 1 ? PIXMAN_KERNEL_BOX : PIXMAN_KERNEL_IMPULSE
    }

    /// Multiplies the four corners of the placed rectangle by the coverage of a circle of `radius`:
    /// 1 inside, 0 outside, and the pixel's share of the edge over a one-pixel band between.
    static func roundCorners(_ image: PixmanImage, x: Int, y: Int, width: Int, height: Int, radius: Int) {
        let r = min(radius, width / 2, height / 2)
        guard r > 0, let base = image.pixels else { return }
        let radius = Double(r)
        for dy in 0..<r {
            for dx in 0..<r {
                // distance from this pixel's centre to the centre of the top-left corner's arc
                let ex = radius - (Double(dx) + 0.5)
                let ey = radius - (Double(dy) + 0.5)
                let coverage = min(max(radius - (ex * ex + ey * ey).squareRoot() + 0.5, 0), 1)
                guard coverage < 1 else { continue }
                let weight = UInt32((coverage * 256).rounded())
                for (px, py) in [
                    (x + dx, y + dy), (x + width - 1 - dx, y + dy), (x + dx, y + height - 1 - dy),
                    (x + width - 1 - dx, y + height - 1 - dy),
                ] {
                    let pointer = (base + py * image.stride).assumingMemoryBound(to: UInt32.self) + px
                    let pixel = pointer.pointee
                    // premultiplied: every channel, alpha included, scales by the coverage
                    let rb = (((pixel & 0x00FF_00FF) * weight) >> 8) & 0x00FF_00FF
                    let ag = (((pixel >> 8) & 0x00FF_00FF) * weight) & 0xFF00_FF00
                    pointer.pointee = rb | ag
                }
            }
        }
    }
}
