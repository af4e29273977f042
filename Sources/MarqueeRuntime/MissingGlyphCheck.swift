import MarqueeCore
import MarqueeRender

/// Characters no installed font has, as warnings for `check-deck`: such a character is drawn as
/// the font's .notdef box (an empty rectangle), which an author should hear about before the
/// screen shows it. Each card's text or section header is named with its path and the character
/// as U+XXXX.
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
        // Decided once per face and character: title, body and header faces have fallback lists
        // of their own (a bold pattern may sort other fonts first).
        var missing: [ObjectIdentifier: [UInt32: Bool]] = [:]
        var named: [DeckProblem] = []
        var unnamed = 0
        func check(_ text: String, _ face: FontFace, path: String, owner: String) {
            var absent: [Unicode.Scalar] = []
            for scalar in text.unicodeScalars where !absent.contains(scalar) {
                let lacks: Bool
                if let known = missing[ObjectIdentifier(face), default: [:]][scalar.value] {
                    lacks = known
                } else {
                    lacks = !face.canDraw(scalar)
                    missing[ObjectIdentifier(face), default: [:]][scalar.value] = lacks
                }
                if lacks { absent.append(scalar) }
            }
            guard !absent.isEmpty else { return }
            guard named.count < TextFitCheck.namedCardLimit else {
                unnamed += 1
                return
            }
            let list = absent.prefix(5).map(hex).joined(separator: ", ")
            let more = absent.count > 5 ? " and \(absent.count - 5) more" : ""
            named.append(
                DeckProblem(
                    path: path,
                    message: "\(owner) has \(list)\(more), which no installed font has (drawn as an empty box)"))
        }
        for (sectionIndex, section) in deck.sections.enumerated() {
            // A header is drawn too, with the header font.
            if let title = section.title {
                check(title, fonts.header, path: "sections[\(sectionIndex)].title", owner: "the section header")
            }
            for (item, card) in section.cards.enumerated() {
                let path = "sections[\(sectionIndex)].cards[\(item)]"
                check(card.title, fonts.title, path: path + ".title", owner: "card \"\(card.id)\"")
                check(card.body, fonts.body, path: path + ".body", owner: "card \"\(card.id)\"")
                // A templated card's text fields, with the faces their elements ask for.
                guard let template = deck.template(of: card) else { continue }
                for element in template.elements {
                    guard case .text(let field) = element.kind, let value = card.fields[field] else { continue }
                    let face = fonts.elementFace(
                        family: element.text.font, weight: element.text.weight, size: element.text.size)
                    check(value, face, path: "\(path).fields.\(field)", owner: "card \"\(card.id)\"")
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
