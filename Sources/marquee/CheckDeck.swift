import ArgumentParser
import MarqueeCore
import MarqueeRuntime

struct CheckDeck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-deck",
        abstract: "Validate a deck file and report every problem with its JSON path.",
        discussion: """
            Exits 0 when the deck is valid, 1 otherwise. Each problem is one line:
              board.json: sections[2].cards[7].id: duplicate id "c7" (first used at sections[0].cards[7])
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
        do {
            let deck = try DeckDecoder.decode(bytes: bytes)
            print(
                "\(file): ok (\(deck.sections.count) sections, \(deck.cardCount) cards, \(deck.layout.kind.rawValue) layout)"
            )
        } catch {
            for problem in error.problems { print("\(file): \(problem)") }
            print("\(file): \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") found")
            throw ExitCode.failure
        }
    }
}
