/// One thing wrong with a deck file, located by its JSON path (`sections[2].cards[7].id`).
public struct DeckProblem: Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A deck that could not be used, with the problems found (not just the first). A hostile deck
/// can have a problem per card, so only the first `DeckDecoder.maximumKeptProblems` are kept; the
/// others are counted.
public struct DeckError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [DeckProblem]
    /// Problems found past the ones kept in `problems`.
    public var uncounted: Int

    public init(problems: [DeckProblem], uncounted: Int = 0) {
        self.problems = problems
        self.uncounted = uncounted
    }

    /// Every problem found, kept or not.
    public var count: Int { problems.count + uncounted }

    public var description: String { listing(limit: problems.count) }

    /// One problem a line, at most `limit` of them, then a line saying how many more there are.
    public func listing(limit: Int) -> String {
        var lines = problems.prefix(max(0, limit)).map(\.description)
        let more = count - lines.count
        if more > 0 { lines.append("… and \(MessageText.count(more, "more problem"))") }
        return lines.joined(separator: "\n")
    }

    /// One line for protocol replies: the first problem and how many more there are.
    public var summary: String {
        guard let first = problems.first else { return "invalid deck" }
        return count == 1
            ? first.description : "\(first.description) (and \(MessageText.count(count - 1, "more problem")))"
    }
}
