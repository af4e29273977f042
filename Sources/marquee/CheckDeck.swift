import ArgumentParser
import MarqueeCore
import MarqueeRuntime

struct CheckDeck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-deck",
        abstract: "Validate a deck file and report every problem with its JSON path.",
        discussion: """
            Checks the JSON, every field, and that the fonts the style names are installed and can be drawn at the style's sizes (opened as `run` opens them; `--font` is not applied here). Exits 0 when the deck is valid, 1 otherwise. Each problem is one line, for example:

              board.json: sections[2].cards[7].id: duplicate id "c7" (first used at sections[0].cards[3])

            Warnings (a valid deck still exits 0) name cards too short to show a line of their body or their title:

              board.json: warning: sections[0].cards[3]: card "c3" is 60 px tall; one line of its body needs 118 px, so the body is not shown (the title ends with …)
            """
    )

    @Argument(help: "The deck file to check.")
    var file: String

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try DeckFile.read(file)
        } catch {
            Log.error(error.message)
            throw ExitCode.failure
        }
        var problems: [DeckProblem]
        var summary = ""
        var warnings: [DeckProblem] = []
        do {
            let deck = try DeckDecoder.decode(bytes: bytes)
            problems = FontCheck.problems(in: deck.style)
            warnings = TextFitCheck.warnings(in: deck) + (problems.isEmpty ? MissingGlyphCheck.warnings(in: deck) : [])
            summary = "\(deck.sections.count) sections, \(deck.cardCount) cards, \(deck.layout.kind.rawValue) layout"
        } catch {
            problems = error.problems
        }
        for warning in warnings { print("\(file): warning: \(warning)") }
        guard problems.isEmpty else {
            for problem in problems { print("\(file): \(problem)") }
            print("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
        print("\(file): ok (\(summary))")
    }
}
