import MarqueeCore

/// A card resolved into what is drawn, in card pixels: its surface (fill and boxes), its static
/// text lines with their faces and colours, and the elements that change with time or arrive
/// later (marquee and clock text, images). Built once per card content and size
/// (`CardResolver`), and used by every drawing path, the caches and damage: nothing else knows
/// what a title or an accent bar is. A class: it is handed from the frame's description to
/// every drawing step, and one reference is cheaper to pass than five arrays.
final class CardContent {
    var surface: CardSurface
    var texts: [PlacedText] = []
    var marquees: [MarqueeText] = []
    var clocks: [ClockText] = []
    var images: [PlacedImage] = []
    /// Drawn once already without a text layer: the next time, one is made (a fast scroll shows
    /// most cards in one frame only, and a layer costs more than drawing the glyphs once).
    var sighted = false
    /// The renderer's frame in which it was last drawn glyph by glyph: a frame drawn in bands
    /// draws the card once per band, and every band must draw it the same way (a layer's
    /// coverage adds up where glyphs overlap, glyphs drawn one by one do not).
    var glyphsDrawnInFrame = -1
    /// Per line of `texts`, the card rows its glyphs cover (colour glyphs included), measured the
    /// first time the card is drawn into a window of rows: a line outside the window is skipped
    /// whole instead of glyph by glyph.
    var textRows: [Range<Int>]?
    /// The static text as coverage layers, once made (`TextLayerBudget` keeps their total
    /// bounded and takes them back).
    var textLayer: CardImage?
    /// Boxes around every pixel the card's foreground (`Renderer.drawForeground`) may write,
    /// relative to the card, two pixels wider each way than the glyphs: whichever path draws a
    /// line (glyph by glyph at the card's place, whose rounding of a half may differ, or its text
    /// layer), nothing falls outside. Pictures are drawn within their boxes, a marquee within its
    /// box's columns and its line's ink rows (which may reach past a box shorter than the text).
    /// Nil for a card with a clock, whose text is laid out anew each second and may reach past
    /// the card: the band renderer then draws its windows without the table. For the fills left
    /// to the copy (`ConstantSpans`), worked out on first use.
    lazy var foregroundBoxes: [TextPainter.Ink]? = {
        guard clocks.isEmpty else { return nil }
        func padded(_ box: TextPainter.Ink) -> TextPainter.Ink {
            TextPainter.Ink(x0: box.x0 - 2, y0: box.y0 - 2, x1: box.x1 + 2, y1: box.y1 + 2)
        }
        let lines = texts.compactMap { text in
            TextPainter.drawnBox(text.line, face: text.face, x: text.x, baseline: text.baseline).map(padded)
        }
        let pictures = images.map {
            padded(
                TextPainter.Ink(x0: $0.box.x, y0: $0.box.y, x1: $0.box.x + $0.box.width, y1: $0.box.y + $0.box.height))
        }
        let strips = marquees.map { marquee in
            // The strip is drawn at its ink's rows (`MarqueeStrip.top`), cut to the box's columns.
            let ink = TextPainter.drawnBox(marquee.line, face: marquee.face, x: 0, baseline: marquee.baseline)
            return padded(
                TextPainter.Ink(
                    x0: marquee.box.x, y0: min(marquee.box.y, ink?.y0 ?? marquee.box.y),
                    x1: marquee.box.x + marquee.box.width,
                    y1: max(marquee.box.y + marquee.box.height, ink?.y1 ?? marquee.box.y)))
        }
        return lines + pictures + strips
    }()
    /// How many rows the elements may draw above the card's top and below its bottom (the most
    /// any element's `TemplateElement.reach` passes them; 0 when none does): text placed near an
    /// edge with a large size, or partly outside the card. Drawn as it is, the card's glyphs
    /// land there, so the item's rows (`DrawnItem.rows`) include them.
    var reachAbove = 0
    var reachBelow = 0
    /// When the text layer was last drawn, for `TextLayerBudget`.
    var lastUse: UInt64 = 0

    init(surface: CardSurface) { self.surface = surface }

    /// Nothing in the card changes with time: it is drawn the same until its content changes.
    var isStatic: Bool { marquees.isEmpty && clocks.isEmpty && images.isEmpty }
}

/// The card's rounded fill with its boxes, which every card with the same surface shares (one
/// cached image). A box's colour replaces the fill where the box lies; the card's opacity applies
/// to both.
struct CardSurface: Hashable {
    var width: Int
    var height: Int
    var fill: Color
    /// The opacity of the fill and of every box (the style's card alpha times the fill's alpha).
    var opacity: Double
    var radius: Double
    var boxes: [SurfaceBox] = []
}

/// A filled rectangle on the surface, in whole card pixels, with its own corner radius.
struct SurfaceBox: Hashable {
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int
    var radius: Double
    var color: Color

    func contains(_ x: Int, _ y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
}

/// One laid-out line with where it goes and how it is drawn. `clip` cuts it to card columns.
struct PlacedText {
    var line: TextLine
    var face: FontFace
    var color: Color
    var x: Double
    var baseline: Double
    var clip: Range<Int>?
}

/// A line wider than its element that scrolls sideways: its offset is a function of the display
/// link's target time alone (`offset(at:)`), so every frame at the same time draws it the same.
struct MarqueeText {
    var line: TextLine
    var face: FontFace
    var color: Color
    /// The element's box, in card pixels.
    var box: (x: Int, y: Int, width: Int, height: Int)
    var baseline: Double
    var speed: Double
    var pause: Double
    /// Card rows the element draws on.
    var rows: Range<Int>

    /// How far the text is scrolled at `time`: resting at 0 for `pause` seconds, travelling to
    /// its far end at `speed`, resting there, and travelling back; in whole pixels, so that a
    /// frame redraws only when the text really moves.
    static func offset(at time: Double, travel: Double, speed: Double, pause: Double) -> Int {
        guard travel > 0, speed > 0 else { return 0 }
        let moving = travel / speed
        let period = 2 * (pause + moving)
        var phase = time.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        let position: Double
        if phase < pause {
            position = 0
        } else if phase < pause + moving {
            position = (phase - pause) * speed
        } else if phase < 2 * pause + moving {
            position = travel
        } else {
            position = travel - (phase - 2 * pause - moving) * speed
        }
        return Int(min(max(position, 0), travel).rounded())
    }

    var travel: Double { max(0, line.width - Double(box.width)) }

    func offset(at time: Double) -> Int { Self.offset(at: time, travel: travel, speed: speed, pause: pause) }

    /// The earliest time after `time` at which the offset changes: the next frame while moving,
    /// the end of the pause while resting.
    func nextChange(after time: Double) -> Double {
        let moving = travel / speed
        let period = 2 * (pause + moving)
        guard travel > 0, period > 0 else { return .infinity }
        var phase = time.truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        if phase < pause { return time + (pause - phase) }
        if phase >= pause + moving, phase < 2 * pause + moving { return time + (2 * pause + moving - phase) }
        return time
    }
}

/// A clock element: the text is the local time in `format`, laid out when it changes.
struct ClockText {
    var format: String
    var face: FontFace
    var color: Color
    var box: (x: Int, y: Int, width: Int, height: Int)
    var baseline: Double
    var align: TextAlign
    var direction: TextDirection
    var rows: Range<Int>
}

/// An image element: the request for the provider (nil when the card's field gives no usable
/// path), and the placeholder drawn until the image is ready.
struct PlacedImage {
    var request: ImageRequest?
    var box: (x: Int, y: Int, width: Int, height: Int)
    var radius: Double
    var placeholder: Color
    var rows: Range<Int>
}

/// The text layers held by card contents, bounded by memory: past the budget, the least recently
/// drawn are dropped (down to three quarters of it, so the sort happens once per quarter filled).
final class TextLayerBudget {
    let budgetBytes: Int
    private(set) var bytes = 0
    private var holders: [CardContent] = []
    private var clock: UInt64 = 0
    /// Layers made (for tests and the bench).
    private(set) var rasterizedCount = 0

    init(budgetBytes: Int) { self.budgetBytes = budgetBytes }

    func touch(_ content: CardContent) {
        clock += 1
        content.lastUse = clock
    }

    func add(_ layer: CardImage, to content: CardContent) {
        clock += 1
        content.textLayer = layer
        content.lastUse = clock
        holders.append(content)
        bytes += layer.byteCount
        rasterizedCount += 1
        guard bytes > budgetBytes else { return }
        let target = budgetBytes / 4 * 3
        holders.sort { $0.lastUse < $1.lastUse }
        var kept: [CardContent] = []
        for holder in holders {
            if bytes > target, holder !== content, let layer = holder.textLayer {
                bytes -= layer.byteCount
                holder.textLayer = nil
            } else {
                kept.append(holder)
            }
        }
        holders = kept
    }

    func removeAll() {
        for holder in holders { holder.textLayer = nil }
        holders.removeAll()
        bytes = 0
    }
}
