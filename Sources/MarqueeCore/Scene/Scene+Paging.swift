/// Where the next page of `play pages` and `play cards N` is: rows found in the height index,
/// O(log n) a page, in the copies of the deck when it loops.
extension Scene {
    /// A row of the layout (a card row, or a section's header row) in a copy of the deck.
    struct RowSpan: Equatable {
        /// Content y of the row's top (in copy `copy`).
        var top: Double
        /// The row's height with the spacing after it.
        var extent: Double
        var copy: Int
        /// Cards before the row in its copy (for a header: before its section's first card).
        var cardsBefore: Int
    }

    /// The row whose span (with the spacing after it) holds content y; in the deck's copies when
    /// `looping`, else nil past the deck's end. Above the first row, the first row.
    func row(containing y: Double, looping: Bool) -> RowSpan? {
        let total = layout.index.totals.extent
        guard total > 0 else { return nil }
        let contentTop = layout.configuration.insets.top
        var local = y - contentTop
        var copy = 0
        if looping, local >= total {
            copy = Int((local / total).rounded(.down))
            local -= Double(copy) * total
            // Rounding may leave `local` a hair past the end of its copy.
            if local >= total {
                copy += 1
                local -= total
            }
        }
        let (position, before) = layout.index.position(containingOffset: max(local, 0))
        guard position < layout.index.count else { return nil }
        return RowSpan(
            top: contentTop + Double(copy) * total + before.extent, extent: layout.index.entry(at: position).extent,
            copy: copy, cardsBefore: before.cards)
    }

    /// The row after `row` (the first row of the next copy after the last, when `looping`).
    func row(after row: RowSpan, looping: Bool) -> RowSpan? {
        self.row(containing: row.top + row.extent, looping: looping)
    }

    /// How far below the top a page's first row rests: one `spacing` (or `insets.top`, when that
    /// is less), so nothing of the row before it shows above it. (`scroll-to` places a card
    /// `insets.top` down, where the first card rests, which may show the foot of the card before.)
    var pageGap: Double { min(layout.configuration.insets.top, layout.configuration.spacing) }

    /// The offset that puts `row` at the top of a page.
    func pageOffset(placing row: RowSpan) -> Double { row.top - pageGap }

    /// The offset of the page after the one at `current`, or nil at the deck's end (wrap=rewind
    /// then scrolls back to 0).
    ///
    /// Pages: the next page starts with the first row not wholly shown now, so nothing is ever
    /// cut at the top; the last page may leave room below the deck's last card. Cards: N cards past
    /// the card row at the top (whole rows in a grid). Either moves at least one row, so a card
    /// taller than the screen still pages.
    func nextPageOffset(from current: Double, _ settings: PlaybackSettings) -> Double? {
        let looping = settings.loops
        let height = scrollSpaceHeight
        guard let top = row(containing: current + pageGap + 0.5, looping: looping) else {
            // Past the end (the deck shrank under the last page): back to the start.
            return looping ? nil : (current > 0.5 ? 0 : nil)
        }
        if !looping {
            let total = layout.index.totals.extent
            let lastBottom = layout.configuration.insets.top + total - layout.configuration.spacing
            // Everything to the deck's end is on screen: rewind.
            if lastBottom <= current + height + 0.5 { return current > 0.5 ? 0 : nil }
        }
        var next: RowSpan?
        switch settings.mode {
        case .pages, .ticker:
            let cut = current + height
            if let row = row(containing: cut, looping: looping) {
                // Its card ends on screen (the cut falls in the spacing after it): the one after.
                let shownWhole = row.top + row.extent - layout.configuration.spacing <= cut + 0.5
                next = shownWhole ? self.row(after: row, looping: looping) : row
            }
        case .cards(let count):
            let cardCount = layout.cardCount
            guard cardCount > 0 else { return nil }
            let first = top.copy * cardCount + top.cardsBefore + count
            let copy = looping ? first / cardCount : 0
            let card = looping ? first % cardCount : min(first, cardCount - 1)
            if let frame = layout.frame(ofCard: card) {
                let total = layout.index.totals.extent
                next = row(containing: frame.y + Double(copy) * total, looping: looping)
            }
        }
        guard var next else { return looping ? nil : (current > 0.5 ? 0 : nil) }
        if next.top <= top.top + 0.5 && next.copy == top.copy || pageOffset(placing: next) <= current + 0.5 {
            // The row at the top is taller than the page (or N cards stay in it): one row on.
            guard let after = row(after: top, looping: looping) else { return current > 0.5 ? 0 : nil }
            next = after
        }
        return pageOffset(placing: next)
    }
}
