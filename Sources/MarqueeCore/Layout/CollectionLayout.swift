/// Something the layout places: a section header or a card.
public enum LayoutItem: Equatable, Sendable {
    case header(section: Int, frame: Rect)
    case card(index: Int, section: Int, item: Int, frame: Rect)

    public var frame: Rect {
        switch self {
        case .header(_, let frame), .card(_, _, _, let frame): return frame
        }
    }
}

/// List and grid layouts (SPEC §2) over a `HeightIndex`: every query is O(log n) in the number of
/// cards, and only the entries that meet the viewport are visited per frame.
///
/// Content coordinates: the first entry starts at `insets.top`; every entry's extent includes the
/// spacing after it, which the content height drops once at the end. A section is a marker entry
/// (its header row, or nothing when the section has no title) followed by its card rows.
public struct CollectionLayout: Sendable {
    public let configuration: LayoutConfiguration
    public let viewport: PixelSize
    public internal(set) var index: HeightIndex

    public init(deck: Deck, viewport: PixelSize) {
        self.configuration = deck.layout
        self.viewport = viewport
        let configuration = deck.layout
        // Entries go straight into runs: a million cards of one height are never a million
        // entries in memory.
        var entries = HeightIndex.Builder()
        for section in deck.sections {
            entries.append(Self.markerEntry(title: section.title, configuration))
            switch configuration.kind {
            case .list:
                // Heights only: the cards' texts are not made.
                section.cards.forEachSizing { height, template in
                    let own =
                        height ?? template.flatMap { $0 == CardTemplate.defaultName ? nil : deck.templates[$0]?.height }
                    entries.append(
                        .init(extent: (own ?? configuration.cardHeight) + configuration.spacing, cards: 1, sections: 0))
                }
            case .grid:
                var remaining = section.cards.count
                while remaining > 0 {
                    let inRow = min(remaining, configuration.columns)
                    entries.append(
                        .init(extent: configuration.cardHeight + configuration.spacing, cards: inRow, sections: 0))
                    remaining -= inRow
                }
            }
        }
        index = entries.build()
    }

    static func markerEntry(title: String?, _ configuration: LayoutConfiguration) -> HeightIndex.Entry {
        let hasHeader = title != nil && configuration.headerHeight > 0
        return .init(extent: hasHeader ? configuration.headerHeight + configuration.spacing : 0, cards: 0, sections: 1)
    }

    public var cardCount: Int { index.totals.cards }
    public var sectionCount: Int { index.totals.sections }

    public var columns: Int { configuration.kind == .grid ? configuration.columns : 1 }

    /// Width of one column of cards.
    public var cardWidth: Double {
        let insets = configuration.insets
        let available = Double(viewport.width) - insets.left - insets.right
        let gaps = configuration.spacing * Double(columns - 1)
        return max(0, (available - gaps) / Double(columns))
    }

    public var contentHeight: Double {
        let total = index.totals.extent
        let insets = configuration.insets
        return insets.top + max(0, total - (total > 0 ? configuration.spacing : 0)) + insets.bottom
    }

    /// The largest scroll offset: the content's bottom edge at the viewport's bottom edge.
    public var maxOffset: Double { max(0, contentHeight - Double(viewport.height)) }

    /// The percentage of SPEC §4, in [0, 1] (0 when nothing scrolls).
    public func percent(atOffset offset: Double) -> Double {
        let maximum = maxOffset
        return maximum > 0 ? min(max(offset / maximum, 0), 1) : 0
    }

    /// The content frame of card `cardIndex` (global), or nil when out of range.
    public func frame(ofCard cardIndex: Int) -> Rect? {
        guard cardIndex >= 0, cardIndex < cardCount else { return nil }
        let (position, before) = index.position(containingCard: cardIndex)
        let entry = index.entry(at: position)
        return cardFrame(
            column: cardIndex - before.cards, rowTop: configuration.insets.top + before.extent, entry: entry)
    }

    /// Section and item of card `cardIndex` (global), or nil when out of range.
    public func location(ofCard cardIndex: Int) -> (section: Int, item: Int)? {
        guard cardIndex >= 0, cardIndex < cardCount else { return nil }
        let (_, before) = index.position(containingCard: cardIndex)
        let section = before.sections - 1
        let sectionStart = index.position(ofSection: section).before.cards
        return (section, cardIndex - sectionStart)
    }

    /// The content frame of section `section`'s header, or nil when it has none.
    public func headerFrame(ofSection section: Int) -> Rect? {
        guard section >= 0, section < sectionCount else { return nil }
        let (position, before) = index.position(ofSection: section)
        guard index.entry(at: position).extent > 0 else { return nil }
        return headerFrame(top: configuration.insets.top + before.extent)
    }

    /// Where section `section` starts in content coordinates: the top of its header, or of its
    /// first card row when it has no header (for an empty section without one, where the next
    /// thing starts); nil when out of range.
    public func top(ofSection section: Int) -> Double? {
        guard section >= 0, section < sectionCount else { return nil }
        return configuration.insets.top + index.position(ofSection: section).before.extent
    }

    private func headerFrame(top: Double) -> Rect {
        Rect(
            x: configuration.insets.left, y: top,
            width: max(0, Double(viewport.width) - configuration.insets.left - configuration.insets.right),
            height: configuration.headerHeight)
    }

    private func cardFrame(column: Int, rowTop: Double, entry: HeightIndex.Entry) -> Rect {
        let width = cardWidth
        return Rect(
            x: configuration.insets.left + Double(column) * (width + configuration.spacing), y: rowTop,
            width: width, height: entry.extent - configuration.spacing)
    }

    /// Whether `frame` shares a vertical span of positive length with `[top, bottom)`.
    static func meets(_ frame: Rect, _ top: Double, _ bottom: Double) -> Bool {
        frame.height > 0 && frame.y < bottom && frame.maxY > top
    }

    /// Appends to `items`, in drawing order (top to bottom, left to right), every header and card
    /// whose content frame shares an area with the viewport `[offset, offset + viewport.height)`.
    /// Costs O(log n + visible items).
    public func visibleItems(atOffset offset: Double, into items: inout [LayoutItem]) {
        self.items(from: offset, to: offset + Double(viewport.height), into: &items)
    }

    /// Appends every header and card whose content frame meets `[top, bottom)`, in drawing order.
    public func items(from top: Double, to bottom: Double, into items: inout [LayoutItem]) {
        let count = index.count
        guard count > 0, bottom > top else { return }
        let contentTop = configuration.insets.top
        var (position, before) = index.position(containingOffset: top - contentTop)
        if top - contentTop < 0 { (position, before) = (0, HeightIndex.Sums()) }
        var rowTop = contentTop + before.extent
        var cardIndex = before.cards
        var section = before.sections - 1
        var sectionFirstCard = section >= 0 ? index.position(ofSection: section).before.cards : 0
        while position < count, rowTop < bottom {
            let entry = index.entry(at: position)
            if entry.sections > 0 {
                section += 1
                sectionFirstCard = cardIndex
                if entry.extent > 0 {
                    let frame = headerFrame(top: rowTop)
                    if Self.meets(frame, top, bottom) { items.append(.header(section: section, frame: frame)) }
                }
            }
            for column in 0..<entry.cards {
                let frame = cardFrame(column: column, rowTop: rowTop, entry: entry)
                if Self.meets(frame, top, bottom) {
                    items.append(
                        .card(index: cardIndex, section: section, item: cardIndex - sectionFirstCard, frame: frame))
                }
                cardIndex += 1
            }
            rowTop += entry.extent
            position += 1
        }
    }
}
