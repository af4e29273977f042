import MarqueeCore
import MarqueeRender

/// Whether the fonts a style names can be drawn, as deck problems (for `check-deck`). Each font is
/// found with fontconfig and then opened with FreeType at the style's size, as `run` does, so a
/// font that fontconfig finds but FreeType cannot draw at that size (a bitmap font, a broken file)
/// fails here too instead of only at start. Both open a font through `FontSet.face(for:...)`: a
/// colour font of fixed bitmap strikes (Noto Color Emoji) is accepted at any size by both, and a
/// monochrome bitmap font at a size it lacks is refused by both in the same words.
public enum FontCheck {
    /// The style's fonts and the fonts the deck's template elements name.
    public static func problems(in deck: Deck) -> [DeckProblem] {
        problems(in: deck.style) + elementProblems(in: deck.templates, bodyFont: deck.style.bodyFont)
    }

    /// Each text or clock element that names a `font`, opened at its weight and size as `run`
    /// opens it: a family that is not installed is refused as a style's font is (fontconfig would
    /// otherwise substitute another family), with the element's path. Alerts and overlay bands
    /// use the deck's templates, so they are covered too. Elements without a `font` use the
    /// body font's family, which `problems(in: Style)` checks.
    public static func elementProblems(in templates: [String: CardTemplate], bodyFont: String) -> [DeckProblem] {
        var named: [(path: String, style: TemplateTextStyle)] = []
        for name in templates.keys.sorted() {
            guard let template = templates[name] else { continue }
            for (index, element) in template.elements.enumerated() where element.text.font != nil {
                switch element.kind {
                case .text, .clock: named.append(("templates.\(name).elements[\(index)].font", element.text))
                case .image, .box: continue
                }
            }
        }
        // Most decks name no element font: fontconfig is not even opened for them.
        guard !named.isEmpty else { return [] }
        let locator: FontLocator
        let library: FreeTypeLibrary
        switch openFontTools() {
        case .success(let tools): (locator, library) = tools
        case .failure(let error): return [DeckProblem(path: named[0].path, message: error.message)]
        }
        var problems: [DeckProblem] = []
        var verdicts: [String: String?] = [:]
        for (path, style) in named {
            let pattern = FontSet.pattern(family: style.font, weight: style.weight, bodyPattern: bodyFont)
            let key = "\(FontSet.pixelSize(style.size))@\(pattern)"
            let verdict: String?
            if let known = verdicts[key] {
                verdict = known
            } else {
                do {
                    _ = try FontSet.face(for: pattern, size: style.size, library: library, locator: locator)
                    verdict = nil
                } catch {
                    verdict = error.message
                }
                verdicts[key] = verdict
            }
            if let verdict { problems.append(DeckProblem(path: path, message: verdict)) }
        }
        return problems
    }

    public static func problems(in style: Style) -> [DeckProblem] {
        let locator: FontLocator
        let library: FreeTypeLibrary
        switch openFontTools() {
        case .success(let tools): (locator, library) = tools
        case .failure(let error): return [DeckProblem(path: "style", message: error.message)]
        }
        var problems: [DeckProblem] = []
        for (field, pattern, size) in [
            ("titleFont", style.titleFont, style.titleSize), ("bodyFont", style.bodyFont, style.bodySize),
            ("headerFont", style.headerFont, style.headerSize),
        ] {
            do {
                _ = try FontSet.face(for: pattern, size: size, library: library, locator: locator)
            } catch {
                problems.append(DeckProblem(path: "style.\(field)", message: error.message))
            }
        }
        return problems
    }

    /// fontconfig and FreeType, opened as `run` opens them.
    private static func openFontTools() -> Result<(FontLocator, FreeTypeLibrary), RenderError> {
        do throws(RenderError) {
            return .success((try FontLocator(), try FreeTypeLibrary()))
        } catch {
            return .failure(error)
        }
    }
}
