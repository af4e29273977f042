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

/// A deck that could not be used, with every problem found (not just the first).
public struct DeckError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [DeckProblem]

    public init(problems: [DeckProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }

    /// One line for protocol replies: the first problem and how many more there are.
    public var summary: String {
        guard let first = problems.first else { return "invalid deck" }
        return problems.count == 1
            ? first.description : "\(first.description) (and \(problems.count - 1) more problems)"
    }
}
