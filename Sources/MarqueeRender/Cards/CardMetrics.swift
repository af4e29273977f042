import MarqueeCore

/// Where text goes inside a card, derived from the style alone (docs/deck-format.md, "Card
/// anatomy"). With the SPEC §10 bench style (padding 24, title 40 px, body 24 px) this puts the
/// title baseline at 52 and the body baselines at 100 and 136, as the bench scene prescribes.
struct CardMetrics {
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
        bodyLineCount =
            lastBaseline < firstBodyBaseline
            ? 0 : Int(((lastBaseline - firstBodyBaseline) / bodyLineHeight).rounded(.down)) + 1
    }
}
