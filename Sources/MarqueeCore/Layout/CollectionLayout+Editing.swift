/// Keeping the layout in step with card edits in O(log n), without rebuilding it.
///
/// In a list each card is its own row entry. In a grid every row of a section is full except the
/// last, so inserting or removing any card of a section changes only the section's last row
/// (cards after the change shift one column, which the layout derives).
extension CollectionLayout {
    /// The position of section `section`'s marker entry and the position after its last row.
    func entryRange(ofSection section: Int) -> (marker: Int, end: Int) {
        let marker = index.position(ofSection: section).position
        let end = section + 1 < sectionCount ? index.position(ofSection: section + 1).position : index.count
        return (marker, end)
    }

    /// Adds a card at `item` of `section`.
    public mutating func insertCard(section: Int, item: Int, height: Double?) {
        let (marker, end) = entryRange(ofSection: section)
        switch configuration.kind {
        case .list:
            let extent = (height ?? configuration.cardHeight) + configuration.spacing
            index.insert(.init(extent: extent, cards: 1, sections: 0), at: marker + 1 + item)
        case .grid:
            let lastRow = end - 1
            if lastRow > marker, index.entry(at: lastRow).cards < configuration.columns {
                var row = index.entry(at: lastRow)
                row.cards += 1
                index.replace(at: lastRow, with: row)
            } else {
                index.insert(
                    .init(extent: configuration.cardHeight + configuration.spacing, cards: 1, sections: 0), at: end)
            }
        }
    }

    /// Removes the card at `item` of `section`.
    public mutating func removeCard(section: Int, item: Int) {
        let (marker, end) = entryRange(ofSection: section)
        switch configuration.kind {
        case .list:
            index.remove(at: marker + 1 + item)
        case .grid:
            let lastRow = end - 1
            var row = index.entry(at: lastRow)
            if row.cards > 1 {
                row.cards -= 1
                index.replace(at: lastRow, with: row)
            } else {
                index.remove(at: lastRow)
            }
        }
    }

    /// A list card's height changed (a grid ignores card heights).
    public mutating func setCardHeight(section: Int, item: Int, height: Double?) {
        guard configuration.kind == .list else { return }
        let (marker, _) = entryRange(ofSection: section)
        let extent = (height ?? configuration.cardHeight) + configuration.spacing
        index.replace(at: marker + 1 + item, with: .init(extent: extent, cards: 1, sections: 0))
    }

    /// Adds the entries of a section (its marker and rows) so that it becomes section `index`.
    /// O(k log n) for a section of k cards.
    public mutating func insertSection(
        _ section: Section, at sectionIndex: Int, templates: [String: CardTemplate] = [:]
    ) {
        var position = sectionIndex < sectionCount ? index.position(ofSection: sectionIndex).position : index.count
        index.insert(Self.markerEntry(title: section.title, configuration), at: position)
        position += 1
        switch configuration.kind {
        case .list:
            for card in section.cards {
                index.insert(
                    .init(
                        extent: (Deck.listHeight(of: card, templates: templates) ?? configuration.cardHeight)
                            + configuration.spacing, cards: 1, sections: 0
                    ), at: position)
                position += 1
            }
        case .grid:
            var remaining = section.cards.count
            while remaining > 0 {
                let inRow = min(remaining, configuration.columns)
                index.insert(
                    .init(extent: configuration.cardHeight + configuration.spacing, cards: inRow, sections: 0),
                    at: position)
                position += 1
                remaining -= inRow
            }
        }
    }

    /// Removes section `sectionIndex`'s entries.
    public mutating func removeSection(at sectionIndex: Int) {
        let (marker, end) = entryRange(ofSection: sectionIndex)
        for _ in marker..<end { index.remove(at: marker) }
    }
}
