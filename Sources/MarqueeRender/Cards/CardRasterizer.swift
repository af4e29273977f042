import CPixman
import MarqueeCore

/// Draws one card into its own premultiplied ARGB image: the rounded, anti-aliased fill (with the
/// accent bar), then the title and body text. The result is cached and composited per frame.
struct CardRasterizer {
    let style: Style
    let fonts: FontSet
    let textColor: PixmanImage

    func rasterize(_ card: Card, width: Int, height: Int) throws(RenderError) -> PixmanImage {
        // Every pixel is painted by fillShape, so the memory need not be zeroed first.
        let image = try PixmanImage(
            format: PIXMAN_a8r8g8b8, width: max(1, width), height: max(1, height), zeroed: false)
        fillShape(image, card: card)
        let metrics = CardMetrics(style: style, width: Double(width), height: Double(height))
        if !card.title.isEmpty {
            for line in TextLayout.lines(
                card.title, face: fonts.title, maximumWidth: metrics.textWidth, maximumLines: 1)
            {
                TextPainter.draw(
                    line, face: fonts.title, color: textColor, onto: image, x: metrics.padding,
                    baseline: metrics.titleBaseline)
            }
        }
        if !card.body.isEmpty {
            let lines = TextLayout.lines(
                card.body, face: fonts.body, maximumWidth: metrics.textWidth, maximumLines: metrics.bodyLineCount)
            for (number, line) in lines.enumerated() {
                let baseline = metrics.firstBodyBaseline + Double(number) * metrics.bodyLineHeight
                TextPainter.draw(
                    line, face: fonts.body, color: textColor, onto: image, x: metrics.padding, baseline: baseline)
            }
        }
        return image
    }

    /// Fills the rounded rectangle. Coverage at the corners comes from each pixel center's
    /// distance to the corner circle (a one-pixel ramp), which anti-aliases the arc without
    /// supersampling. Only corner pixels are computed one by one; every other run of a row is a
    /// single vectorized fill (this loop was half of a frame's time when done pixel by pixel).
    private func fillShape(_ image: PixmanImage, card: Card) {
        guard let pixels = image.pixels?.assumingMemoryBound(to: UInt32.self) else { return }
        let width = image.width
        let height = image.height
        let rowPixels = image.stride / 4
        let fill = card.color ?? style.cardColor
        let opacity = style.cardAlpha * Double(fill.alpha) / 255
        let fillPixel = Self.premultiplied(fill, opacity: opacity)
        let accentPixel = card.accent.map { Self.premultiplied($0, opacity: opacity * Double($0.alpha) / 255) }
        let accentWidth = accentPixel == nil ? 0 : min(width, Int(style.accentWidth.rounded()))
        let radius = min(style.cornerRadius, Double(min(width, height)) / 2)
        let cornerSpan = min(Int(radius.rounded(.up)), width / 2)
        /// Fills `[from, to)` of a row with the accent and the fill as they fall.
        func span(_ row: UnsafeMutablePointer<UInt32>, _ from: Int, _ to: Int) {
            guard from < to else { return }
            let accentEnd = min(max(accentWidth, from), to)
            if accentEnd > from { (row + from).update(repeating: accentPixel!, count: accentEnd - from) }
            if to > accentEnd { (row + accentEnd).update(repeating: fillPixel, count: to - accentEnd) }
        }
        for y in 0..<height {
            let row = pixels + y * rowPixels
            let inCornerRows = y < cornerSpan || y >= height - cornerSpan
            guard inCornerRows else {
                span(row, 0, width)
                continue
            }
            let centerY = Double(y) + 0.5
            let circleY = y < cornerSpan ? radius : Double(height) - radius
            let dy = max(0, y < cornerSpan ? circleY - centerY : centerY - circleY)
            func corner(_ x: Int) {
                let base = x < accentWidth ? accentPixel! : fillPixel
                let circleX = x < cornerSpan ? radius : Double(width) - radius
                let dx = max(0, x < cornerSpan ? circleX - (Double(x) + 0.5) : Double(x) + 0.5 - circleX)
                let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
                row[x] = Self.scale(base, by: coverage)
            }
            for x in 0..<cornerSpan { corner(x) }
            for x in (width - cornerSpan)..<width { corner(x) }
            span(row, cornerSpan, width - cornerSpan)
        }
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
}
