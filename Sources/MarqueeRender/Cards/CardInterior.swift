import CPixman
import MarqueeCore

/// A card drawn as it is (not scaled, turned, faded or tinted) over the frame's uniform
/// background, overlapping nothing drawn before it: card color OVER background is then a constant
/// everywhere but the anti-aliased corner rows (and the accent bar's ends), so those parts are
/// written as plain fills without reading the frame, and only the corners are blended.
struct CardInterior {
    var card: Card
    var x: Int32
    var y: Int32
    var width: Int
    var height: Int
    /// First and last (exclusive) rows, relative to the card, of the part that is a constant.
    var rowsFrom: Int
    var rowsTo: Int
    var accentWidth: Int
    var fill: UInt32
    var accent: UInt32
    /// Columns at each end of the corner rows that the rounded corners (and, on the left, the
    /// accent bar) make differ from `fill`; between them the corner rows are `fill` too.
    var leftEdge: Int
    var rightEdge: Int

    /// Nil when the card has no constant part (too small for its corners).
    init?(card: Card, frame: Rect, style: Style, background: Color) {
        let width = Int(frame.width.rounded())
        let height = Int(frame.height.rounded())
        let radius = min(style.cornerRadius, Double(min(width, height)) / 2)
        let cornerRows = min(Int(radius.rounded(.up)), height / 2)
        guard width > 0, height > 2 * cornerRows else { return nil }
        let fillColor = card.color ?? style.cardColor
        let opacity = style.cardAlpha * Double(fillColor.alpha) / 255
        let fill = Self.over(CardRasterizer.premultiplied(fillColor, opacity: opacity), background)
        let accent = card.accent.map {
            Self.over(CardRasterizer.premultiplied($0, opacity: opacity * Double($0.alpha) / 255), background)
        }
        let accentWidth = accent == nil ? 0 : min(width, Int(style.accentWidth.rounded()))
        let cornerColumns = min(Int(radius.rounded(.up)) + 1, width)
        self.card = card
        x = Int32(frame.x.rounded())
        y = Int32(frame.y.rounded())
        self.width = width
        self.height = height
        rowsFrom = cornerRows
        rowsTo = height - cornerRows
        self.accentWidth = accentWidth
        self.fill = fill
        self.accent = accent ?? fill
        leftEdge = max(cornerColumns, accentWidth)
        rightEdge = cornerColumns
    }

    /// The columns of the corner rows that are the plain fill, relative to the card.
    var plainColumns: Range<Int> { leftEdge < width - rightEdge ? leftEdge..<(width - rightEdge) : 0..<0 }

    /// Each part of the card written as a constant, in frame coordinates, with its color: the
    /// accent strip and the fill of the interior rows, and the middle of the corner rows.
    /// (A callback, not an array: this runs for every card of every frame.)
    func forEachConstantBox(_ body: (pixman_box32_t, UInt32) -> Void) {
        let top = y + Int32(rowsFrom)
        let bottom = y + Int32(rowsTo)
        if accentWidth > 0 { body(pixman_box32_t(x1: x, y1: top, x2: x + Int32(accentWidth), y2: bottom), accent) }
        body(pixman_box32_t(x1: x + Int32(accentWidth), y1: top, x2: x + Int32(width), y2: bottom), fill)
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
