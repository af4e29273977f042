import MarqueeCore

/// Where text goes inside a card, derived from the style alone (docs/deck-format.md, "Card
/// anatomy"). With the SPEC §10 bench style (padding 24, title 40 px, body 24 px) this puts the
/// title baseline at 52 and the body baselines at 100 and 136, as the bench scene prescribes.
public struct CardMetrics {
    let padding: Double
    let titleBaseline: Double
    let firstBodyBaseline: Double
    let bodyLineHeight: Double
    let textWidth: Double
    let bodyLineCount: Int

    init(style: Style, width: Double, height: Double) {
        padding = style.padding
        titleBaseline = style.padding + 0.7 * style.titleSize
        bodyLineHeight = 1.5 * style.bodySize
        firstBodyBaseline = titleBaseline + 2 * style.bodySize
        textWidth = max(0, width - 2 * style.padding)
        // A body line fits when its descenders (about a quarter of the size) stay above half the
        // bottom padding.
        let lastBaseline = height - style.padding / 2 - 0.25 * style.bodySize
        // At most 1,000 lines, so that an absurd card height cannot overflow the conversion.
        bodyLineCount =
            lastBaseline < firstBodyBaseline
            ? 0 : Int(min(1_000, ((lastBaseline - firstBodyBaseline) / bodyLineHeight).rounded(.down))) + 1
    }

    /// The smallest card height that shows one line of a body (by the rule above); a shorter card
    /// shows its title only, ended with "…" (`check-deck` warns about it).
    public static func heightForOneBodyLine(style: Style) -> Double {
        1.5 * style.padding + 0.7 * style.titleSize + 2.25 * style.bodySize
    }

    /// The smallest card height whose title line, descenders included, is not cut by the card's
    /// bottom edge.
    public static func heightForTitle(style: Style) -> Double {
        style.padding + 0.95 * style.titleSize
    }
}
