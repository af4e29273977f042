import MarqueeCore
import MarqueeRender

/// Characters no installed font has, as warnings for `check-deck`: such a character is drawn as
/// the font's .notdef box (an empty rectangle), which an author should hear about before the
/// screen shows it. Each card is named with its path and the character as U+XXXX.
public enum MissingGlyphCheck {
    public static func warnings(in deck: Deck) -> [DeckProblem] {
        let fonts: FontSet
        do {
            let locator = try FontLocator()
            fonts = try FontSet(
                style: deck.style, library: try FreeTypeLibrary(), locator: { () throws(RenderError) in locator },
                override: nil)
        } catch {
            return []  // FontCheck reports fonts that cannot be opened.
        }
        var missing: [UInt32: Bool] = [:]
        var named: [DeckProblem] = []
        var unnamed = 0
        for (sectionIndex, section) in deck.sections.enumerated() {
            for (item, card) in section.cards.enumerated() {
                for (field, text, face) in [("title", card.title, fonts.title), ("body", card.body, fonts.body)] {
                    var absent: [Unicode.Scalar] = []
                    for scalar in text.unicodeScalars where !absent.contains(scalar) {
                        let lacks: Bool
                        if let known = missing[scalar.value] {
                            lacks = known
                        } else {
                            lacks = !face.canDraw(scalar)
                            missing[scalar.value] = lacks
                        }
                        if lacks { absent.append(scalar) }
                    }
                    guard !absent.isEmpty else { continue }
                    if named.count < TextFitCheck.namedCardLimit {
                        let list = absent.prefix(5).map(hex).joined(separator: ", ")
                        let more = absent.count > 5 ? " and \(absent.count - 5) more" : ""
                        named.append(
                            DeckProblem(
                                path: "sections[\(sectionIndex)].cards[\(item)].\(field)",
                                message:
                                    "card \"\(card.id)\" has \(list)\(more), which no installed font has (drawn as an empty box)"
                            ))
                    } else {
                        unnamed += 1
                    }
                }
            }
        }
        if unnamed > 0 {
            named.append(
                DeckProblem(
                    path: "", message: "and \(unnamed) more text\(unnamed == 1 ? "" : "s") with such characters"))
        }
        return named
    }

    static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
