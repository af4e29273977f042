import CPixman
import MarqueeCore

/// A card drawn as it is (not scaled, turned, faded or tinted) over the frame's uniform
/// background, overlapping nothing drawn before it: card color OVER background is then a constant
/// everywhere but the anti-aliased corner rows (and the ends of boxes reaching them), so those parts are
/// written as plain fills without reading the frame, and only the corners are blended.
struct CardInterior {
    var surface: CardSurface
    var x: Int32
    var y: Int32
    var width: Int
    var height: Int
    /// First and last (exclusive) rows, relative to the card, of the part that is a constant.
    var rowsFrom: Int
    var rowsTo: Int
    var fill: UInt32
    /// The frame's background, under the boxes written as constants over the fill (their
    /// colours are worked out as they are written: an array of them would be an allocation per
    /// card per frame).
    var background: Color
    /// Columns at each end of the corner rows that the rounded corners (and boxes reaching those
    /// rows at either end) make differ from `fill`; between them the corner rows are `fill` too.
    var leftEdge: Int
    var rightEdge: Int

    /// Nil when the card has no constant part (too small for its corners), or has a rounded box
    /// (drawn whole from the shared surface instead).
    init?(surface: CardSurface, frame: Rect, background: Color) {
        let width = Int(frame.width.rounded())
        let height = Int(frame.height.rounded())
        guard width == surface.width, height == surface.height else { return nil }
        let radius = min(surface.radius, Double(min(width, height)) / 2)
        let cornerRows = min(Int(radius.rounded(.up)), height / 2)
        guard width > 0, height > 2 * cornerRows, !surface.boxes.contains(where: { $0.radius > 0 }) else { return nil }
        let fill = Self.over(SurfacePainter.premultiplied(surface.fill, opacity: surface.opacity), background)
        let cornerColumns = min(Int(radius.rounded(.up)) + 1, width)
        self.surface = surface
        x = Int32(frame.x.rounded())
        y = Int32(frame.y.rounded())
        self.width = width
        self.height = height
        rowsFrom = cornerRows
        rowsTo = height - cornerRows
        self.fill = fill
        self.background = background
        var left = cornerColumns
        var right = cornerColumns
        for box in surface.boxes where box.y0 < cornerRows || box.y1 > height - cornerRows {
            if box.x0 < cornerColumns {
                left = max(left, box.x1)
            } else if box.x1 > width - cornerColumns {
                right = max(right, width - box.x0)
            } else {
                // A box in the middle of a corner band: the whole band is blended.
                left = width
            }
        }
        leftEdge = left
        rightEdge = right
    }

    /// The columns of the corner rows that are the plain fill, relative to the card.
    var plainColumns: Range<Int> { leftEdge < width - rightEdge ? leftEdge..<(width - rightEdge) : 0..<0 }

    /// Each part of the card written as a constant, in frame coordinates, with its color: the
    /// accent strip and the fill of the interior rows, and the middle of the corner rows.
    /// (A callback, not an array: this runs for every card of every frame.)
    func forEachConstantBox(_ body: (pixman_box32_t, UInt32) -> Void) {
        let top = y + Int32(rowsFrom)
        let bottom = y + Int32(rowsTo)
        body(pixman_box32_t(x1: x, y1: top, x2: x + Int32(width), y2: bottom), fill)
        for box in surface.boxes {
            let pixel = Self.over(
                SurfacePainter.premultiplied(box.color, opacity: surface.opacity * Double(box.color.alpha) / 255),
                background)
            let y0 = max(box.y0, rowsFrom)
            let y1 = min(box.y1, rowsTo)
            guard y1 > y0 else { continue }
            body(
                pixman_box32_t(x1: x + Int32(box.x0), y1: y + Int32(y0), x2: x + Int32(box.x1), y2: y + Int32(y1)),
                pixel)
        }
        let plain = plainColumns
        guard !plain.isEmpty else { return }
        let left = x + Int32(plain.lowerBound)
        let right = x + Int32(plain.upperBound)
        if rowsFrom > 0 { body(pixman_box32_t(x1: left, y1: y, x2: right, y2: top), fill) }
        if height > rowsTo { body(pixman_box32_t(x1: left, y1: bottom, x2: right, y2: y + Int32(height)), fill) }
    }

    /// Each part of the corner rows that is blended from the card's background image, relative
    /// to the card: both ends of each corner band, or the whole band when it has no middle.
    func forEachBlendedBox(_ body: (_ column: Int, _ row: Int, _ columns: Int, _ rows: Int) -> Void) {
        let plain = plainColumns
        for (row, rows) in [(0, rowsFrom), (rowsTo, height - rowsTo)] where rows > 0 {
            if plain.isEmpty {
                body(0, row, width, rows)
            } else {
                body(0, row, plain.lowerBound, rows)
                body(plain.upperBound, row, width - plain.upperBound, rows)
            }
        }
    }

    /// A premultiplied ARGB pixel OVER an opaque color, as one opaque pixel (pixman's rounding).
    static func over(_ pixel: UInt32, _ background: Color) -> UInt32 {
        let alpha = pixel >> 24
        func channel(_ shift: UInt32, _ under: UInt8) -> UInt32 {
            let t = UInt32(under) * (255 - alpha) + 0x80
            return min(255, ((pixel >> shift) & 0xFF) + ((t >> 8) + t) >> 8)
        }
        return 0xFF00_0000 | channel(16, background.red) << 16 | channel(8, background.green) << 8
            | channel(0, background.blue)
    }
}
