import MarqueeCore
import MarqueeRender

/// Whether the fonts a style names are installed, as deck problems (for `check-deck`).
public enum FontCheck {
    public static func problems(in style: Style) -> [DeckProblem] {
        let locator: FontLocator
        do {
            locator = try FontLocator()
        } catch {
            return [DeckProblem(path: "style", message: error.message)]
        }
        var problems: [DeckProblem] = []
        for (field, pattern) in [
            ("titleFont", style.titleFont), ("bodyFont", style.bodyFont), ("headerFont", style.headerFont),
        ] {
            do {
                _ = try locator.path(for: pattern)
            } catch {
                problems.append(DeckProblem(path: "style.\(field)", message: error.message))
            }
        }
        return problems
    }
}
