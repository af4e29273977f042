import MarqueeCore

/// Decks for tests, built in code so each test says exactly what it shows.
public enum SmallDecks {
    /// `counts[i]` cards in section i; sections with a title when `titled`.
    public static func deck(
        sectionCounts counts: [Int], titled: Bool = true, kind: LayoutKind = .list, columns: Int = 1,
        heights: (Int) -> Double? = { _ in nil }
    ) -> Deck {
        var deck = Deck()
        deck.layout.kind = kind
        deck.layout.columns = columns
        var number = 0
        for (sectionIndex, count) in counts.enumerated() {
            var section = Section(title: titled ? "Section \(sectionIndex)" : nil)
            for _ in 0..<count {
                section.cards.append(
                    Card(
                        id: "c\(number)", title: "Card \(number)", body: "Body of card \(number)",
                        height: heights(number)))
                number += 1
            }
            deck.sections.append(section)
        }
        return deck
    }
}
