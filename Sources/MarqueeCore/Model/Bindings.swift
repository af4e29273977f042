/// Properties bound to keyframes over the scroll percentage (SPEC §4; docs/deck-format.md,
/// "Keyframes"). Nothing here depends on time: the values follow the offset, which scrolls animate.
public struct Bindings: Equatable, Sendable {
    public var background: ColorKeyframes?
    public var cards: CardBindings?

    public init(background: ColorKeyframes? = nil, cards: CardBindings? = nil) {
        self.background = background
        self.cards = cards
    }

    public var isEmpty: Bool { background == nil && cards == nil }
}

/// The space colors are interpolated in.
public enum ColorSpace: String, Equatable, Sendable {
    /// Red, green, blue, alpha, each 0...1.
    case rgb
    /// Hue (turns: 0...1 is once around; values past 1 keep going), saturation, brightness, alpha.
    case hsb
}

/// Color keyframes: each stop holds four components in `space`.
public struct ColorKeyframes: Equatable, Sendable {
    public var space: ColorSpace
    public var keyframes: Keyframes<SIMD4<Double>>

    public init(space: ColorSpace, keyframes: Keyframes<SIMD4<Double>>) {
        self.space = space
        self.keyframes = keyframes
    }

    public func color(at position: Double) -> Color {
        let value = keyframes.value(at: position)
        switch space {
        case .rgb:
            return Color(
                red: Color.byte(value.x), green: Color.byte(value.y), blue: Color.byte(value.z),
                alpha: Color.byte(value.w))
        case .hsb:
            return Color(hue: value.x, saturation: value.y, brightness: value.z, alpha: value.w)
        }
    }

    /// A color's components in `space`.
    public static func components(of color: Color, in space: ColorSpace) -> SIMD4<Double> {
        let rgba = SIMD4(Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha)) / 255
        guard space == .hsb else { return rgba }
        let maximum = max(rgba.x, rgba.y, rgba.z)
        let minimum = min(rgba.x, rgba.y, rgba.z)
        let delta = maximum - minimum
        var hue = 0.0
        if delta > 0 {
            if maximum == rgba.x {
                hue = ((rgba.y - rgba.z) / delta).truncatingRemainder(dividingBy: 6)
            } else if maximum == rgba.y {
                hue = (rgba.z - rgba.x) / delta + 2
            } else {
                hue = (rgba.x - rgba.y) / delta + 4
            }
            hue /= 6
            if hue < 0 { hue += 1 }
        }
        return SIMD4(hue, maximum > 0 ? delta / maximum : 0, maximum, rgba.w)
    }
}

/// What a card binding's keyframes are positioned by.
public enum BindingInput: String, Equatable, Sendable {
    /// The scroll percentage, 0...1: every card gets the same value.
    case percent
    /// The card's center in the viewport: 0 at the top edge, 1 at the bottom edge (beyond when
    /// partly off screen), so cards can change as they move up the screen.
    case position
}

/// Per-card properties bound to keyframes.
public struct CardBindings: Equatable, Sendable {
    public var input: BindingInput = .percent
    /// A color laid over the card (its alpha sets the strength).
    public var tint: ColorKeyframes?
    /// Pixels to the right.
    public var translateX: Keyframes<Double>?
    /// Multiplies the card's alpha, 0...1.
    public var opacity: Keyframes<Double>?
    /// About the card's center.
    public var scale: Keyframes<Double>?
    /// Radians, clockwise, about the card's center.
    public var rotation: Keyframes<Double>?

    public init() {}
}
