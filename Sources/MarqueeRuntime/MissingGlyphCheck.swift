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
        var coverages: [ObjectIdentifier: GlyphCoverage] = [:]
        func coverage(_ face: FontFace) -> GlyphCoverage {
            if let known = coverages[ObjectIdentifier(face)] { return known }
            let made = GlyphCoverage(face)
            coverages[ObjectIdentifier(face)] = made
            return made
        }
        var named: [DeckProblem] = []
        var unnamed = 0
        // Paths and names are made only for the texts named: a million cards are checked.
        func check(_ text: String, _ coverage: GlyphCoverage, path: () -> String, owner: () -> String) {
            var text = text
            text.withUTF8 { check($0, coverage, path: path, owner: owner) }
        }
        func check(
            _ text: UnsafeBufferPointer<UInt8>, _ coverage: GlyphCoverage, path: () -> String, owner: () -> String
        ) {
            let absent = coverage.absent(in: text)
            guard !absent.isEmpty else { return }
            guard named.count < TextFitCheck.namedCardLimit else {
                unnamed += 1
                return
            }
            let list = absent.prefix(5).map(hex).joined(separator: ", ")
            let more = absent.count > 5 ? " and \(absent.count - 5) more" : ""
            named.append(
                DeckProblem(
                    path: path(),
                    message: "\(owner()) has \(list)\(more), which no installed font has (drawn as an empty box)"))
        }
        let (title, body, header) = (coverage(fonts.title), coverage(fonts.body), coverage(fonts.header))
        for (sectionIndex, section) in deck.sections.enumerated() {
            // A header is drawn too, with the header font.
            if let text = section.title {
                check(text, header, path: { "sections[\(sectionIndex)].title" }, owner: { "the section header" })
            }
            // Read as stored: a card is made only when it has fields beyond its texts.
            section.cards.forEachStored { item, stored in
                let path = { "sections[\(sectionIndex)].cards[\(item)]" }
                let owner = { "card \"\(stored.idString)\"" }
                check(stored.title, title, path: { path() + ".title" }, owner: owner)
                check(stored.body, body, path: { path() + ".body" }, owner: owner)
                // A templated card's text fields, with the faces their elements ask for.
                guard let card = stored.card, let template = deck.template(of: card) else { return }
                for element in template.elements {
                    guard case .text(let field) = element.kind, let value = card.fields[field] else { continue }
                    let face = fonts.elementFace(
                        family: element.text.font, weight: element.text.weight, size: element.text.size)
                    check(value, coverage(face), path: { "\(path()).fields.\(field)" }, owner: owner)
                }
            }
        }
        // Overlay bands draw their template's text fields as cards do.
        for (index, band) in deck.overlays.enumerated() {
            guard let template = deck.template(of: band.card) else { continue }
            for element in template.elements {
                guard case .text(let field) = element.kind, let value = band.card.fields[field] else { continue }
                let face = fonts.elementFace(
                    family: element.text.font, weight: element.text.weight, size: element.text.size)
                check(
                    value, coverage(face), path: { "overlays[\(index)].fields.\(field)" },
                    owner: { "overlay band \(index)" })
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

/// Which characters one face (with its fallbacks) can draw, asked of FreeType once per character:
/// ASCII in a table, the rest in a dictionary.
private final class GlyphCoverage {
    private let face: FontFace
    /// 0 unknown, 1 drawn, 2 missing.
    private var ascii = [UInt8](repeating: 0, count: 128)
    private var other: [UInt32: Bool] = [:]

    init(_ face: FontFace) { self.face = face }

    /// The characters of `text` (valid UTF-8) the face cannot draw, each once, in order.
    func absent(in text: UnsafeBufferPointer<UInt8>) -> [Unicode.Scalar] {
        var absent: [Unicode.Scalar] = []
        var allASCII = true
        for byte in text {
            guard byte < 0x80 else {
                allASCII = false
                break
            }
            if ascii[Int(byte)] == 0 { ascii[Int(byte)] = face.canDraw(Unicode.Scalar(byte)) ? 1 : 2 }
            if ascii[Int(byte)] == 2, !absent.contains(Unicode.Scalar(byte)) { absent.append(Unicode.Scalar(byte)) }
        }
        guard !allASCII else { return absent }
        absent = []
        // (Marks layout leaves out, past 30 in a row, are not drawn, so not missing either.)
        for value in TextLayout.scalarsDrawn(String(decoding: text, as: UTF8.self)) {
            guard let scalar = Unicode.Scalar(value), !absent.contains(scalar), lacks(scalar) else { continue }
            absent.append(scalar)
        }
        return absent
    }

    private func lacks(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 {
            let byte = Int(scalar.value)
            if ascii[byte] == 0 { ascii[byte] = face.canDraw(scalar) ? 1 : 2 }
            return ascii[byte] == 2
        }
        if let known = other[scalar.value] { return known }
        let lacks = !face.canDraw(scalar)
        other[scalar.value] = lacks
        return lacks
    }
}
