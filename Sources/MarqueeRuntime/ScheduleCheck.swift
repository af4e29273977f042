import MarqueeCore

/// What `check-deck` warns about in a deck's schedule: a rule naming a section the deck does not
/// have (by id or title), which shows nothing for that name while the rule holds.
public enum ScheduleCheck {
    public static func warnings(in deck: Deck) -> [DeckProblem] {
        var warnings: [DeckProblem] = []
        for (index, rule) in deck.schedule.enumerated() {
            guard case .sections(let names) = rule.action else { continue }
            for (nameIndex, name) in names.enumerated()
            where !deck.sections.contains(where: { Session.shows($0, [name]) }) {
                warnings.append(
                    DeckProblem(
                        path: "schedule[\(index)].sections[\(nameIndex)]",
                        message: "no section has the id or title \(MessageText.quoted(name)): nothing is shown for it"))
            }
        }
        return warnings
    }
}
