import ArgumentParser
import MarqueeCore
import MarqueeRuntime

struct CheckDeck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-deck",
        abstract: "Validate a deck file and report every problem with its JSON path.",
        discussion: """
            Checks the JSON, every field, and that the fonts the style names are installed. Exits 0 when the deck is valid, 1 otherwise. Each problem is one line, for example:

              board.json: sections[2].cards[7].id: duplicate id "c7" (first used at sections[0].cards[3])
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
        do {
            let deck = try DeckDecoder.decode(bytes: bytes)
            problems = FontCheck.problems(in: deck.style)
            summary = "\(deck.sections.count) sections, \(deck.cardCount) cards, \(deck.layout.kind.rawValue) layout"
        } catch {
            problems = error.problems
        }
        guard problems.isEmpty else {
            for problem in problems { print("\(file): \(problem)") }
            print("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
        print("\(file): ok (\(summary))")
    }
}
