import MarqueeCore
import MarqueeRender

/// Texts a deck can never show, as warnings for `check-deck`: a card too short for one line of its
/// body (it is drawn with its title ended by "…") or for its title. The deck still runs; a warning
/// tells the author before the screen does.
public enum TextFitCheck {
    /// At most this many cards are named; the rest are counted, so a million-card deck with one
    /// style mistake gives a short report.
    public static let namedCardLimit = 10

    public static func warnings(in deck: Deck) -> [DeckProblem] {
        let style = deck.style
        let bodyHeight = CardMetrics.heightForOneBodyLine(style: style)
        let titleHeight = CardMetrics.heightForTitle(style: style)
        var named: [DeckProblem] = []
        var unnamed = 0
        for (sectionIndex, section) in deck.sections.enumerated() {
            // Read as stored: a card is made only when it has fields beyond its texts.
            section.cards.forEachStored { item, stored in
                // A card's own height counts in a list only; a grid's rows share the layout's.
                let ownHeight = deck.layout.kind == .list ? stored.card.flatMap { deck.listHeight(of: $0) } : nil
                let height = ownHeight ?? deck.layout.cardHeight
                let message: String
                if !stored.title.isEmpty, height < titleHeight {
                    message =
                        "card \"\(stored.idString)\" is \(format(height)) px tall; its title needs \(format(titleHeight)) px and is cut"
                } else if !stored.body.isEmpty, height < bodyHeight {
                    let shown =
                        stored.title.isEmpty
                        ? "nothing of it is shown" : "the body is not shown (the title ends with …)"
                    message =
                        "card \"\(stored.idString)\" is \(format(height)) px tall; one line of its body needs \(format(bodyHeight)) px, so \(shown)"
                } else {
                    return
                }
                if named.count < namedCardLimit {
                    named.append(DeckProblem(path: "sections[\(sectionIndex)].cards[\(item)]", message: message))
                } else {
                    unnamed += 1
                }
            }
        }
        if unnamed > 0 {
            named.append(
                DeckProblem(path: "", message: "and \(unnamed) more card\(unnamed == 1 ? "" : "s") like these"))
        }
        return named
    }

    /// "60" rather than "60.0" for whole pixels.
    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
