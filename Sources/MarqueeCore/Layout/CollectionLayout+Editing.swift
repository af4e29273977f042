/// Keeping the layout in step with card edits in O(log n), without rebuilding it.
///
/// In a list each card is its own row entry. In a grid every row of a section is full except the
/// last, so inserting or removing any card of a section changes only the section's last row
/// (cards after the change shift one column, which the layout derives).
extension CollectionLayout {
    /// The position of section `section`'s marker entry and the position after its last row.
    private func entryRange(ofSection section: Int) -> (marker: Int, end: Int) {
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
}
