import MarqueeCore
import MarqueeRender

/// Whether the fonts a style names can be drawn, as deck problems (for `check-deck`). Each font is
/// found with fontconfig and then opened with FreeType at the style's size, as `run` does, so a
/// font that fontconfig finds but FreeType cannot draw at that size (a bitmap font, a broken file)
/// fails here too instead of only at start. Both open a font through `FontSet.face(for:...)`: a
/// colour font of fixed bitmap strikes (Noto Color Emoji) is accepted at any size by both, and a
/// monochrome bitmap font at a size it lacks is refused by both in the same words.
public enum FontCheck {
    public static func problems(in style: Style) -> [DeckProblem] {
        let locator: FontLocator
        let library: FreeTypeLibrary
        do {
            locator = try FontLocator()
            library = try FreeTypeLibrary()
        } catch {
            return [DeckProblem(path: "style", message: error.message)]
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
}
