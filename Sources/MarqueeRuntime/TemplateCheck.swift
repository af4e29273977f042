import Glibc
import MarqueeCore

/// What `check-deck` warns about in a deck's templates and fields: a field a template shows that
/// none of its cards gives, a template no card uses, text whose colour is too close to its card's
/// fill to read; and card ids that commands cannot name. The deck still runs. Image files that cannot be shown are problems, not
/// warnings: `imageUses` lists them for `ImagePaths.problems`.
public enum TemplateCheck {
    /// The least contrast text may have against its card: WCAG 2's ratio of relative luminances,
    /// (L1 + 0.05) / (L2 + 0.05), below 3:1 (what WCAG asks of large text) is a warning.
    public static let minimumContrast = 3.0
    /// Cards named per kind of warning; the rest are counted.
    public static let namedCardLimit = 10

    public static func warnings(in deck: Deck, deckPath: String? = nil) -> [DeckProblem] {
        var warnings: [DeckProblem] = []
        var used: [String: Int] = [:]
        var given: [String: Set<String>] = [:]
        var lowContrast: [DeckProblem] = []
        var lowContrastUncounted = 0
        // A card of only an id, a title and a body (most cards) shows its text in the style's
        // colour on the style's fill: decided once.
        let plainFill = shownFill(Card(id: ""), deck)
        let plainContrast = contrast(deck.style.textColor, plainFill)
        func noteLowContrast(_ color: Color, _ fill: Color, _ what: String, _ path: () -> String) {
            guard lowContrast.count < namedCardLimit else {
                lowContrastUncounted += 1
                return
            }
            lowContrast.append(
                DeckProblem(
                    path: path(),
                    message:
                        "\(what) \(color.hexString) on the card's fill \(fill.hexString) has a contrast of \(format(contrast(color, fill))):1 (at least \(format(minimumContrast)):1 reads)"
                ))
        }
        // Fields no element shows: a misspelt name ("staus" for "status") is otherwise silently
        // not drawn. Each template's names as a set, made once.
        var unshown: [DeckProblem] = []
        var unshownUncounted = 0
        var shownNames: [String: Set<String>] = [:]
        func noteUnshownFields(_ card: Card, _ template: CardTemplate?, owner: () -> String, path: () -> String) {
            guard !card.fields.isEmpty else { return }
            let name = template == nil ? CardTemplate.defaultName : card.template ?? CardTemplate.defaultName
            let shown = shownNames[name] ?? Set(template?.fieldNames ?? [])
            shownNames[name] = shown
            for field in card.fields.keys.sorted() where !shown.contains(field) {
                guard unshown.count < namedCardLimit else {
                    unshownUncounted += 1
                    continue
                }
                let names = template?.fieldNames.map { MessageText.quoted($0) }.joined(separator: ", ") ?? ""
                let what =
                    template == nil
                    ? "the default template, which shows no fields (title and body only; name a template)"
                    : "template \(MessageText.quoted(name)), which does not show it (its fields: \(names.isEmpty ? "none" : names))"
                unshown.append(
                    DeckProblem(
                        path: "\(path()).fields.\(MessageText.clipped(field))",
                        message: "\(owner()) gives field \(MessageText.quoted(field)) to \(what)"))
            }
        }
        // Ids commands cannot name (`DeckDecoder.idProblem`).
        var unnamable: [DeckProblem] = []
        var unnamableUncounted = 0
        for (sectionIndex, section) in deck.sections.enumerated() {
            section.cards.forEachStored { item, stored in
                // Made only for a card named: a million cards are checked.
                let path = { "sections[\(sectionIndex)].cards[\(item)]" }
                if let problem = DeckDecoder.idProblem(stored.id) {
                    if unnamable.count < namedCardLimit {
                        let id = String(decoding: stored.id, as: UTF8.self)
                        unnamable.append(
                            DeckProblem(path: path() + ".id", message: "\(MessageText.quoted(id)) \(problem)"))
                    } else {
                        unnamableUncounted += 1
                    }
                }
                guard let card = stored.card else {
                    if plainContrast < minimumContrast, !stored.title.isEmpty || !stored.body.isEmpty {
                        noteLowContrast(deck.style.textColor, plainFill, "text colour", path)
                    }
                    return
                }
                let template = deck.template(of: card)
                noteUnshownFields(card, template, owner: { "card \(MessageText.quoted(card.id))" }, path: path)
                if let name = card.template, template != nil {
                    used[name, default: 0] += 1
                    given[name, default: []].formUnion(card.fields.keys)
                }
                let fill = shownFill(card, deck)
                for (color, what) in textColors(card, template, deck.style)
                where contrast(color, fill) < minimumContrast {
                    noteLowContrast(color, fill, what, path)
                }
            }
        }
        // An overlay band uses its template as a card does.
        for (index, band) in deck.overlays.enumerated() {
            guard let name = band.card.template else { continue }
            used[name, default: 0] += 1
            given[name, default: []].formUnion(band.card.fields.keys)
            if let template = deck.template(of: band.card) {
                noteUnshownFields(
                    band.card, template, owner: { "overlay band \(index)" }, path: { "overlays[\(index)]" })
            }
        }
        for name in deck.templates.keys.sorted() {
            guard let template = deck.templates[name] else { continue }
            guard used[name] != nil else {
                warnings.append(
                    DeckProblem(
                        path: "templates.\(name)", message: "no card or overlay uses this template (an alert may)"))
                continue
            }
            for field in template.fieldNames where !(given[name]?.contains(field) ?? false) {
                warnings.append(
                    DeckProblem(
                        path: "templates.\(name)",
                        message: "no card gives field \(MessageText.quoted(field)), which the template shows"))
            }
        }
        warnings += unnamable
        if unnamableUncounted > 0 {
            warnings.append(
                DeckProblem(
                    path: "",
                    message: "and \(MessageText.count(unnamableUncounted, "more card id")) commands cannot name"))
        }
        warnings += unshown
        if unshownUncounted > 0 {
            warnings.append(
                DeckProblem(
                    path: "", message: "and \(MessageText.count(unshownUncounted, "more field")) no template shows"))
        }
        warnings += lowContrast
        if lowContrastUncounted > 0 {
            warnings.append(
                DeckProblem(path: "", message: "and \(MessageText.count(lowContrastUncounted, "more text")) like these")
            )
        }
        return warnings
    }

    /// Every image a card or an overlay band shows: the JSON path of the field that names it, and
    /// its value.
    public static func imageUses(in deck: Deck) -> [(jsonPath: String, value: String)] {
        var uses: [(jsonPath: String, value: String)] = []
        guard !deck.templates.isEmpty else { return uses }
        // A band shows its pictures as a card does, on every frame: one missing is as visible.
        for (index, band) in deck.overlays.enumerated() {
            guard let template = deck.template(of: band.card) else { continue }
            for element in template.elements {
                guard case .image(let field, _, _, _) = element.kind, let value = band.card.fields[field],
                    !value.isEmpty
                else { continue }
                uses.append(("overlays[\(index)].fields.\(MessageText.clipped(field))", value))
            }
        }
        for (sectionIndex, section) in deck.sections.enumerated() {
            // A card with no template or fields is given as nil: it names no image.
            section.cards.forEachStored { item, stored in
                guard let card = stored.card, let template = deck.template(of: card) else { return }
                for element in template.elements {
                    guard case .image(let field, _, _, _) = element.kind, let value = card.fields[field], !value.isEmpty
                    else { continue }
                    uses.append(
                        ("sections[\(sectionIndex)].cards[\(item)].fields.\(MessageText.clipped(field))", value))
                }
            }
        }
        return uses
    }

    /// The card's fill as the screen shows it: at the card's opacity over the deck's background.
    static func shownFill(_ card: Card, _ deck: Deck) -> Color {
        let fill = card.color ?? deck.style.cardColor
        let opacity = deck.style.cardAlpha * Double(fill.alpha) / 255
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            UInt8((Double(top) * opacity + Double(bottom) * (1 - opacity)).rounded())
        }
        let background = deck.style.background
        return Color(
            red: mix(fill.red, background.red), green: mix(fill.green, background.green),
            blue: mix(fill.blue, background.blue))
    }

    /// The colours the card's text is drawn in, each with what shows it.
    static func textColors(_ card: Card, _ template: CardTemplate?, _ style: Style) -> [(Color, String)] {
        guard let template else {
            return card.title.isEmpty && card.body.isEmpty ? [] : [(style.textColor, "text colour")]
        }
        var colors: [(Color, String)] = []
        for element in template.elements {
            let what: String
            switch element.kind {
            case .text(let field):
                guard card.fields[field].map({ !$0.isEmpty }) ?? false else { continue }
                what = "text \(MessageText.quoted(field))"
            case .clock(let format): what = "clock \(MessageText.quoted(format))"
            case .image, .box: continue
            }
            let color = element.text.color?.resolve(card.fields) ?? style.textColor
            if !colors.contains(where: { $0.0 == color && $0.1 == what }) { colors.append((color, what)) }
        }
        return colors
    }

    /// WCAG 2 contrast ratio of two opaque colours, 1...21.
    public static func contrast(_ first: Color, _ second: Color) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    static func luminance(_ color: Color) -> Double {
        func linear(_ value: UInt8) -> Double {
            let unit = Double(value) / 255
            return unit <= 0.04045 ? unit / 12.92 : pow((unit + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    private static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
