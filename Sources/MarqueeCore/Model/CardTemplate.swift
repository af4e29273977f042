/// A card's shape, named in a deck's `templates` (docs/deck-format.md, "Templates"): elements
/// placed by their edges, each showing one of the card's fields (or a clock). Cards without a
/// template use the built-in `default` (title, body and accent bar), which is not a `CardTemplate`:
/// how many body lines it shows depends on the card's height and the style.
public struct CardTemplate: Hashable, Sendable {
    /// The card height the template asks for in a list (a card's own `height` still wins).
    public var height: Double?
    public var elements: [TemplateElement]

    public init(height: Double? = nil, elements: [TemplateElement] = []) {
        self.height = height
        self.elements = elements
    }

    /// The name cards use for the built-in template.
    public static let defaultName = "default"

    /// Every field name the template reads (text, image, box colours, colour maps), in order.
    public var fieldNames: [String] {
        var names: [String] = []
        for element in elements {
            for name in element.fieldNames where !names.contains(name) { names.append(name) }
        }
        return names
    }
}

/// A length along one axis of the card: whole pixels, or a percentage of the card's size.
public enum TemplateLength: Hashable, Sendable {
    case pixels(Double)
    case percent(Double)

    public func resolve(in size: Double) -> Double {
        switch self {
        case .pixels(let value): return value
        case .percent(let value): return value / 100 * size
        }
    }
}

/// Where an element lies along one axis: any two of its near edge, its far edge and its extent.
/// With only one given, the extent is the element's natural one (`naturalExtent`) or the rest of
/// the card.
public struct TemplateSpan: Hashable, Sendable {
    public var start: TemplateLength?
    public var end: TemplateLength?
    public var extent: TemplateLength?

    public init(start: TemplateLength? = nil, end: TemplateLength? = nil, extent: TemplateLength? = nil) {
        self.start = start
        self.end = end
        self.extent = extent
    }

    /// (origin, extent) within a card `size` long. `natural` is used when the extent is neither
    /// given nor implied by both edges.
    public func resolve(in size: Double, natural: Double?) -> (origin: Double, extent: Double) {
        let start = self.start?.resolve(in: size)
        let end = self.end?.resolve(in: size)
        let extent = self.extent?.resolve(in: size)
        switch (start, end, extent) {
        case (let start?, let end?, _): return (start, max(0, size - end - start))
        case (let start?, nil, let extent?): return (start, max(0, extent))
        case (nil, let end?, let extent?): return (size - end - extent, max(0, extent))
        case (let start?, nil, nil): return (start, max(0, natural ?? (size - start)))
        case (nil, let end?, nil):
            let extent = natural ?? size - end
            return (size - end - extent, max(0, extent))
        case (nil, nil, let extent?): return (0, max(0, extent))
        case (nil, nil, nil): return (0, max(0, natural ?? size))
        }
    }
}

/// A text element's colour: one colour, or chosen by a field's value.
public enum TemplateColor: Hashable, Sendable {
    case constant(Color)
    /// `map` by the value of `field`; `fallback` for other values (nil: the style's text colour).
    case mapped(field: String, map: [String: Color], fallback: Color?)

    /// The colour for a card's fields; nil means the deck's text colour.
    public func resolve(_ fields: [String: String]) -> Color? {
        switch self {
        case .constant(let color): return color
        case .mapped(let field, let map, let fallback): return fields[field].flatMap { map[$0] } ?? fallback
        }
    }
}

/// What text does when it is wider than its element.
public enum TextOverflow: Hashable, Sendable {
    /// The last line shown ends with "…".
    case ellipsis
    /// Cut at the element's edges.
    case clip
    /// One line that scrolls sideways at `speed` px/s, resting `pause` seconds at each end.
    case marquee(speed: Double, pause: Double)

    public static let defaultMarqueeSpeed = 60.0
    public static let defaultMarqueePause = 1.5
}

/// The font, size and colour of a text or clock element.
public struct TemplateTextStyle: Hashable, Sendable {
    /// A fontconfig family; nil: the style's body font's family.
    public var font: String?
    /// 100...900 (400 regular, 700 bold).
    public var weight: Int = 400
    public var size: Double = 24
    public var color: TemplateColor?
    public var align: TextAlign = .start
    public var direction: TextDirection?
    public var lines: Int = 1
    public var overflow: TextOverflow = .ellipsis

    public init() {}

    /// Pixels from a line's baseline to the next one's.
    public var lineHeight: Double { (1.25 * size).rounded() }
    /// Pixels from the element's top to its first baseline.
    public var firstBaseline: Double { (0.8 * size).rounded() }
    /// The height the element takes when its placement does not give one.
    public var naturalHeight: Double { Double(max(1, lines)) * lineHeight }
}

/// How an image element fits into its box (the names of `ImageFit` in the renderer).
public enum TemplateImageFit: String, Hashable, Sendable, CaseIterable {
    case contain
    case cover
    case fill
}

/// One element of a template.
public struct TemplateElement: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The named field's value as text.
        case text(field: String)
        /// The image whose path the named field holds.
        case image(field: String, fit: TemplateImageFit, radius: Double, placeholder: Color)
        /// A filled rounded rectangle: its colour is a constant or the named field's value.
        case box(BoxColor, radius: Double)
        /// The local time in a strftime format.
        case clock(format: String)
    }

    public enum BoxColor: Hashable, Sendable {
        case constant(Color)
        case field(String)
    }

    public var kind: Kind
    public var horizontal: TemplateSpan
    public var vertical: TemplateSpan
    /// Font, colour and overflow for text and clock elements.
    public var text: TemplateTextStyle

    public init(kind: Kind, horizontal: TemplateSpan, vertical: TemplateSpan, text: TemplateTextStyle = .init()) {
        self.kind = kind
        self.horizontal = horizontal
        self.vertical = vertical
        self.text = text
    }

    /// The fields the element reads.
    public var fieldNames: [String] {
        var names: [String] = []
        switch kind {
        case .text(let field): names.append(field)
        case .image(let field, _, _, _): names.append(field)
        case .box(.field(let field), _): names.append(field)
        case .box(.constant, _), .clock: break
        }
        if case .mapped(let field, _, _)? = text.color, !names.contains(field) { names.append(field) }
        return names
    }

    /// The element's box in a card of `width` x `height`, in pixels (not rounded).
    public func frame(width: Double, height: Double) -> Rect {
        let isText: Bool
        switch kind {
        case .text, .clock: isText = true
        case .image, .box: isText = false
        }
        let (x, w) = horizontal.resolve(in: width, natural: nil)
        let (y, h) = vertical.resolve(in: height, natural: isText ? text.naturalHeight : nil)
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// The card rows the element can draw on (its box, widened for text's descenders and
    /// antialiasing), for damage and crossfades. Text reaches down to its last line's baseline
    /// (0.8 of the size below the box's top for the first) and half a size past it, also when the
    /// box is shorter than that: a marquee in a box 4 pixels tall for 40-pixel text left its old
    /// descenders behind as it scrolled. Cut to the card's rows (`reach` is not).
    public func rows(width: Double, height: Double) -> Range<Int> {
        let rows = reach(width: width, height: height)
        let top = max(0, rows.lowerBound)
        return top..<max(top, min(Int(height.rounded(.up)), rows.upperBound))
    }

    /// The rows the element can draw on, relative to the card's top, as `rows` gives them but not
    /// cut to the card: text placed near the card's bottom with a large size, or above its top,
    /// draws its glyphs past the card (an image past it too, within its box).
    public func reach(width: Double, height: Double) -> Range<Int> {
        let box = frame(width: width, height: height)
        let reach: Double
        var end = box.maxY
        switch kind {
        case .text, .clock:
            reach = 0.5 * text.size
            end = max(end, box.y + text.firstBaseline + Double(max(1, text.lines) - 1) * text.lineHeight)
        case .image, .box: reach = 1
        }
        let top = Int((box.y - reach).rounded(.down))
        let bottom = Int((end + reach).rounded(.up))
        return top..<max(top, bottom)
    }
}
