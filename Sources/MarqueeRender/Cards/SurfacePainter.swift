import CPixman
import MarqueeCore

/// Paints a card's surface: the fill with its boxes (each box's colour replaces the fill where it
/// lies), all at the card's opacity, inside the card's rounded corners.
enum SurfacePainter {
    /// Coverage at a rounded corner comes from each pixel centre's distance to the corner circle
    /// (a one-pixel ramp), which anti-aliases the arc without supersampling. Only corner pixels
    /// are computed one by one; every other run of a row is a single vectorized fill (this loop
    /// was half of a frame's time when done pixel by pixel).
    /// `image` holds the surface's rows from `firstRow` on (a tile of a tall surface), as many as
    /// it has; its width is the surface's.
    static func paint(_ surface: CardSurface, into image: PixmanImage, firstRow: Int = 0) {
        guard let pixels = image.pixels?.assumingMemoryBound(to: UInt32.self) else { return }
        let width = surface.width
        let height = surface.height
        let rowPixels = image.stride / 4
        let fillPixel = premultiplied(surface.fill, opacity: surface.opacity)
        let boxPixels = surface.boxes.map {
            premultiplied($0.color, opacity: surface.opacity * Double($0.color.alpha) / 255)
        }
        let radius = min(surface.radius, Double(min(width, height)) / 2)
        let cornerSpan = min(Int(radius.rounded(.up)), width / 2)
        /// The surface's colour at a pixel, before the card's own corners.
        func base(_ x: Int, _ y: Int) -> UInt32 {
            var pixel = fillPixel
            for (index, box) in surface.boxes.enumerated() where box.contains(x, y) {
                let coverage = box.radius > 0 ? cornerCoverage(box, x, y) : 1
                pixel = coverage >= 1 ? boxPixels[index] : mix(pixel, boxPixels[index], coverage)
            }
            return pixel
        }
        /// Fills `[from, to)` of row `y` with the fill and the boxes as they fall.
        func span(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, _ from: Int, _ to: Int) {
            guard from < to else { return }
            (row + from).update(repeating: fillPixel, count: to - from)
            for (index, box) in surface.boxes.enumerated() where y >= box.y0 && y < box.y1 {
                let start = max(box.x0, from)
                let end = min(box.x1, to)
                guard start < end else { continue }
                if box.radius > 0 {
                    for x in start..<end { row[x] = base(x, y) }
                } else {
                    (row + start).update(repeating: boxPixels[index], count: end - start)
                }
            }
        }
        for y in firstRow..<min(height, firstRow + image.height) {
            let row = pixels + (y - firstRow) * rowPixels
            let inCornerRows = y < cornerSpan || y >= height - cornerSpan
            guard inCornerRows else {
                span(row, y, 0, width)
                continue
            }
            let centerY = Double(y) + 0.5
            let circleY = y < cornerSpan ? radius : Double(height) - radius
            let dy = max(0, y < cornerSpan ? circleY - centerY : centerY - circleY)
            func corner(_ x: Int) {
                let circleX = x < cornerSpan ? radius : Double(width) - radius
                let dx = max(0, x < cornerSpan ? circleX - (Double(x) + 0.5) : Double(x) + 0.5 - circleX)
                let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
                row[x] = scale(base(x, y), by: coverage)
            }
            for x in 0..<cornerSpan { corner(x) }
            for x in (width - cornerSpan)..<width { corner(x) }
            span(row, y, cornerSpan, width - cornerSpan)
        }
    }

    /// A box's own rounded-corner coverage at a pixel inside its rectangle.
    private static func cornerCoverage(_ box: SurfaceBox, _ x: Int, _ y: Int) -> Double {
        let r = box.radius
        let px = Double(x) + 0.5
        let py = Double(y) + 0.5
        let cx = min(max(px, Double(box.x0) + r), Double(box.x1) - r)
        let cy = min(max(py, Double(box.y0) + r), Double(box.y1) - r)
        let dx = px - cx
        let dy = py - cy
        guard dx != 0 || dy != 0 else { return 1 }
        return min(max(r - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
    }

    /// A box alone (an image's placeholder), as its own premultiplied image.
    static func roundedBox(_ box: SurfaceBox, opacity: Double) throws(RenderError) -> PixmanImage {
        let surface = CardSurface(
            width: max(1, box.x1 - box.x0), height: max(1, box.y1 - box.y0), fill: box.color,
            opacity: opacity * Double(box.color.alpha) / 255, radius: box.radius)
        let image = try PixmanImage(
            format: PIXMAN_a8r8g8b8, width: surface.width, height: surface.height, zeroed: false)
        paint(surface, into: image)
        return image
    }

    static func premultiplied(_ color: Color, opacity: Double) -> UInt32 {
        let alpha = min(max(opacity, 0), 1)
        func channel(_ value: UInt8) -> UInt32 { UInt32((Double(value) * alpha).rounded()) }
        return UInt32((alpha * 255).rounded()) << 24 | channel(color.red) << 16 | channel(color.green) << 8
            | channel(color.blue)
    }

    static func scale(_ pixel: UInt32, by coverage: Double) -> UInt32 {
        if coverage >= 1 { return pixel }
        if coverage <= 0 { return 0 }
        var result: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let channel = Double((pixel >> UInt32(shift)) & 0xFF)
            result |= UInt32((channel * coverage).rounded()) << UInt32(shift)
        }
        return result
    }

    /// `under` with `over` laid on it at `coverage` (both premultiplied), channel by channel.
    private static func mix(_ under: UInt32, _ over: UInt32, _ coverage: Double) -> UInt32 {
        var result: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) {
            let a = Double((under >> UInt32(shift)) & 0xFF)
            let b = Double((over >> UInt32(shift)) & 0xFF)
            result |= UInt32((a + (b - a) * coverage).rounded()) << UInt32(shift)
        }
        return result
    }
}
