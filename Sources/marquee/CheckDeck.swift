import ArgumentParser
import MarqueeCore
import MarqueeRuntime

struct CheckDeck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-deck",
        abstract: "Validate a deck file and report every problem with its JSON path.",
        discussion: """
            Checks the JSON, every field, and that the fonts the style and the template elements name are installed and can be drawn at their sizes (opened as `run` opens them; `--font` is not applied here). Exits 0 when the deck is valid, 1 otherwise. Each problem is one line (the first 20, then how many more), for example:

              board.json: sections[2].cards[7].id: duplicate id "c7" (first used at sections[0].cards[3])

            Warnings (a valid deck still exits 0; the first ten of each kind, then how many more) name, among others, cards too short to show a line of their body or their title, card ids that commands cannot name (a space in one), fields no element of the card's template shows, and texts (card titles and bodies, section headers) with characters that no installed font has, which are drawn as empty boxes; fonts are searched as `run` searches them, fallback included:

              board.json: warning: sections[0].cards[3]: card "c3" is 60 px tall; one line of its body needs 118 px, so the body is not shown (the title ends with …)
              board.json: warning: sections[0].cards[1].title: card "b" has U+10FFFD, which no installed font has (drawn as an empty box)
            """
    )

    /// Problems printed one a line; the rest are counted.
    static let listedProblems = 20

    @Argument(help: "The deck file to check.")
    var file: String

    func run() throws {
        let decoded: Result<Deck, DeckError>
        do {
            decoded = try DeckFile.stream(file)
        } catch {
            Log.error(error.message)
            throw ExitCode.failure
        }
        let lines = Self.report(decoded, file: file)
        for line in lines.output { print(line) }
        if !lines.valid { throw ExitCode.failure }
    }

    /// What `check-deck` prints for a deck's bytes, and whether the deck is valid.
    static func report(_ bytes: [UInt8], file: String) -> (output: [String], valid: Bool) {
        report(Result { () throws(DeckError) in try DeckDecoder.decode(bytes: bytes) }, file: file)
    }

    /// What `check-deck` prints for a decoded deck (or its problems), and whether it is valid.
    static func report(_ decoded: Result<Deck, DeckError>, file: String) -> (output: [String], valid: Bool) {
        let problems: DeckError
        var summary = ""
        var warnings: [DeckProblem] = []
        do {
            let deck = try decoded.get()
            problems = DeckError(
                problems: FontCheck.problems(in: deck)
                    + ImagePaths.problems(TemplateCheck.imageUses(in: deck), deckPath: file))
            warnings =
                TextFitCheck.warnings(in: deck) + TemplateCheck.warnings(in: deck, deckPath: file)
                + ScheduleCheck.warnings(in: deck)
                + (problems.count == 0 ? MissingGlyphCheck.warnings(in: deck) : [])
            summary = [
                MessageText.count(deck.sections.count, "section"), MessageText.count(deck.cardCount, "card"),
                "\(deck.layout.kind.rawValue) layout",
            ].joined(separator: ", ")
        } catch {
            problems = error
        }
        let warningLines = warnings.map { "\(file): warning: \($0)" }
        guard problems.count == 0 else {
            // A deck with a problem per card would print a line per card: the first ones say what
            // is wrong, the count says how much.
            let listed = problems.problems.prefix(listedProblems)
            var output = warningLines + listed.map { "\(file): \($0)" }
            if problems.count > listed.count {
                output.append("\(file): … and \(MessageText.count(problems.count - listed.count, "more problem"))")
            }
            output.append("\(file): \(MessageText.count(problems.count, "problem")) found")
            return (output, false)
        }
        return (warningLines + ["\(file): ok (\(summary))"], true)
    }
}
