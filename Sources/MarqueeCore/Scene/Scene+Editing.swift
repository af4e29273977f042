/// Card edits that animate (SPEC §5): the edited deck and layout take effect at once; what the
/// screen shows moves there over `style.transitionDuration`, starting at the next frame.
///
/// Every affected card or header tweens from its *presented* attributes (so a change arriving
/// mid-transition continues from what is on screen, without a jump) to its new layout attributes.
/// Things not on screen before the edit start from their old layout frame, captured before the edit
/// for a window around the viewport; an inserted card grows from scale 0.01 and alpha 0 at its final
/// place; a deleted card falls, tilts and fades on top of the rest.
extension Scene {
    public var transitionDuration: Double { deck.style.transitionDuration }

    /// Inserts `card` so that its global index becomes `globalIndex` (before the card now there,
    /// or at the end of the last section).
    public mutating func insertCard(_ card: Card, at globalIndex: Int, tag: Int? = nil) throws(DeckEditError) {
        let (section, item) = try deck.insertionPoint(forGlobalIndex: globalIndex)
        try insertCard(card, section: section, item: item, tag: tag)
    }

    /// Inserts `card` at `item` of `section` (`item` may be the section's card count: its end).
    public mutating func insertCard(_ card: Card, section: Int, item: Int, tag: Int? = nil) throws(DeckEditError) {
        guard section >= 0, section < deck.sections.count, item >= 0, item <= deck.sections[section].cards.count else {
            throw DeckEditError("there is no place \(section):\(item) to insert at")
        }
        let globalIndex = deck.firstCardIndex(ofSection: section) + item
        let window = oldFrames(margin: extent(of: card))
        try deck.insert(card, section: section, item: item)
        layout.insertCard(section: section, item: item, height: deck.listHeight(of: card))
        shiftCardIndices { $0 >= globalIndex ? $0 + 1 : $0 }
        retarget(window: window, appearing: [card.id], tag: tag)
    }

    public mutating func deleteCard(at globalIndex: Int, tag: Int? = nil) throws(DeckEditError) {
        let (section, item) = try deck.location(ofCard: globalIndex)
        let card = deck.sections[section].cards[item]
        let window = oldFrames(margin: extent(of: card))
        deck.removeCard(section: section, item: item)
        layout.removeCard(section: section, item: item)
        let key = ItemKey.card(card.id)
        refreshedAfterExpiry.remove(card.id)
        if let shown = presented[key] { fall(.leavingCard(card, index: globalIndex), from: shown.attributes) }
        tweens[key] = nil
        presented[key] = nil
        shiftCardIndices { $0 > globalIndex ? $0 - 1 : $0 }
        retarget(window: window, appearing: [], tag: tag)
    }

    /// Moves the card at `source` so that its global index becomes `destination`.
    public mutating func moveCard(from source: Int, to destination: Int, tag: Int? = nil) throws(DeckEditError) {
        _ = try deck.location(ofCard: source)
        guard destination >= 0, destination < deck.cardCount else {
            throw DeckEditError("destination \(destination) is out of range (0 to \(deck.cardCount - 1))")
        }
        // Removing the card leaves the destination in range, so this cannot fail.
        moveCard(from: source, tag: tag) { deck in try! deck.insertionPoint(forGlobalIndex: destination) }
    }

    /// Moves the card at `source` so that it becomes item `item` of section `section`. `item` counts
    /// the section's cards without the moved one, so it may be their number: the section's end
    /// (which a global index cannot name when another section follows).
    public mutating func moveCard(from source: Int, toSection section: Int, item: Int, tag: Int? = nil)
        throws(DeckEditError)
    {
        let (fromSection, _) = try deck.location(ofCard: source)
        guard section >= 0, section < deck.sections.count else {
            throw DeckEditError(
                "there is no section \(section) to move to (the deck has \(MessageText.count(deck.sections.count, "section")))"
            )
        }
        let room = deck.sections[section].cards.count - (section == fromSection ? 1 : 0)
        guard item >= 0, item <= room else {
            throw DeckEditError(
                "there is no place \(section):\(item) to move to (section \(section) takes items 0 to \(room))")
        }
        moveCard(from: source, tag: tag) { _ in (section, item) }
    }

    /// A move whose destination (section and item, in the deck without the card) is found once the
    /// card is out. The caller has checked that `source` and the destination exist.
    private mutating func moveCard(
        from source: Int, tag: Int?, destination place: (Deck) -> (section: Int, item: Int)
    ) {
        let (fromSection, fromItem) = try! deck.location(ofCard: source)
        let card = deck.sections[fromSection].cards[fromItem]
        var window = oldFrames(margin: extent(of: card))
        let key = ItemKey.card(card.id)
        if window[key] == nil, let frame = layout.frame(ofCard: source) { window[key] = ItemAttributes(frame: frame) }
        // In place (a copy of the deck would copy a section's cards): removing the card frees its id,
        // so the insert cannot fail.
        deck.removeCard(section: fromSection, item: fromItem)
        let (toSection, toItem) = place(deck)
        try! deck.insert(card, section: toSection, item: toItem)
        let destination = deck.firstCardIndex(ofSection: toSection) + toItem
        layout.removeCard(section: fromSection, item: fromItem)
        layout.insertCard(section: toSection, item: toItem, height: deck.listHeight(of: card))
        shiftCardIndices { index in
            if index == source { return destination }
            let afterRemoval = index > source ? index - 1 : index
            return afterRemoval >= destination ? afterRemoval + 1 : afterRemoval
        }
        retarget(window: window, appearing: [], tag: tag)
    }

    /// Inserts a section (with its header and cards) so that it becomes section `index`. Its header
    /// and cards slide in from the left, off screen; each card animates once.
    public mutating func insertSection(_ section: Section, at index: Int, tag: Int? = nil) throws(DeckEditError) {
        guard index >= 0, index <= deck.sections.count else {
            throw DeckEditError("section index \(index) is out of range (0 to \(deck.sections.count))")
        }
        let firstCard = deck.firstCardIndex(ofSection: index)
        let height = Double(section.cards.count) * extent(of: Card(id: "")) + layout.configuration.headerHeight
        var window = oldFrames(margin: height)
        try deck.insertSection(section, at: index)
        layout.insertSection(section, at: index, templates: deck.templates)
        let count = section.cards.count
        shiftCardIndices { $0 >= firstCard ? $0 + count : $0 }
        shiftHeaders { $0 >= index ? $0 + 1 : $0 }
        window = Self.renumberHeaders(in: window) { $0 >= index ? $0 + 1 : $0 }
        var sliding: Set<ItemKey> = [.header(index)]
        for card in section.cards { sliding.insert(.card(card.id)) }
        retarget(window: window, appearing: [], slidingIn: sliding, tag: tag)
    }

    /// Deletes section `index` with its cards: the header and the cards on screen fall and fade.
    public mutating func deleteSection(at index: Int, tag: Int? = nil) throws(DeckEditError) {
        guard index >= 0, index < deck.sections.count else {
            throw DeckEditError(
                "section index \(index) is out of range (the deck has \(MessageText.count(deck.sections.count, "section")))"
            )
        }
        let section = deck.sections[index]
        let firstCard = deck.firstCardIndex(ofSection: index)
        let height = Double(section.cards.count) * extent(of: Card(id: "")) + layout.configuration.headerHeight
        var window = oldFrames(margin: height)
        try deck.removeSection(at: index)
        layout.removeSection(at: index)
        for (offset, card) in section.cards.enumerated() {
            let key = ItemKey.card(card.id)
            refreshedAfterExpiry.remove(card.id)
            if let shown = presented[key] {
                fall(.leavingCard(card, index: firstCard + offset), from: shown.attributes)
            }
            tweens[key] = nil
            presented[key] = nil
        }
        if let shown = presented[.header(index)], let title = section.title {
            fall(.leavingHeader(title: title, section: index), from: shown.attributes)
        }
        tweens[.header(index)] = nil
        presented[.header(index)] = nil
        let count = section.cards.count
        shiftCardIndices { $0 >= firstCard + count ? $0 - count : $0 }
        shiftHeaders { $0 > index ? $0 - 1 : $0 }
        window[.header(index)] = nil
        window = Self.renumberHeaders(in: window) { $0 > index ? $0 - 1 : $0 }
        retarget(window: window, appearing: [], tag: tag)
    }

    /// The appear sequence (SPEC §5): the headers and cards in the viewport appear one after
    /// another, in order, section by section, each with the insert animation, `stagger` seconds
    /// apart. The layout is not touched (it already holds the final counts).
    public mutating func appear(stagger: Double, duration: Double? = nil, tag: Int? = nil) {
        var items: [LayoutItem] = []
        layout.visibleItems(atOffset: animator.presentedOffset, into: &items)
        var tagged = Set<ItemKey>()
        for (order, item) in items.enumerated() {
            let key: ItemKey
            let index: Int
            switch item {
            case .header(let section, _):
                key = .header(section)
                index = section
            case .card(let cardIndex, let section, let itemIndex, _):
                key = .card(deck.sections[section].cards[itemIndex].id)
                index = cardIndex
            }
            let to = ItemAttributes(frame: item.frame)
            let from = ItemAttributes(frame: item.frame, alpha: 0, scale: 0.01)
            tweens[key] = ActiveTween(
                tween: AttributeTween(
                    from: from, to: to, duration: duration ?? transitionDuration, delay: Double(order) * stagger),
                index: index)
            tagged.insert(key)
        }
        if let tag { pendingTags[tag, default: []].formUnion(tagged) }
    }

    /// Changes the keys and fields `patch` gives (`update`). When only fields of a templated card
    /// change, only the elements that show them crossfade, in their rows; otherwise the whole
    /// card does, as `replace` makes it.
    public mutating func updateCard(at globalIndex: Int, with patch: CardPatch, tag: Int? = nil) throws(DeckEditError) {
        let (section, item) = try deck.location(ofCard: globalIndex)
        let old = deck.sections[section].cards[item]
        if let id = patch.id, id != old.id {
            throw DeckEditError(
                "cannot change a card's id (\(MessageText.quoted(old.id)) to \(MessageText.quoted(id)))")
        }
        let card = patch.applied(to: old)
        guard patch.setsOnlyFields, let template = deck.template(of: old) else {
            try updateCard(at: globalIndex, with: card, tag: tag)
            return
        }
        let changed = Set(patch.fields.filter { old.fields[$0.key] != $0.value }.map(\.key))
        let width = layout.frame(ofCard: globalIndex)?.width ?? 0
        let height = layout.frame(ofCard: globalIndex)?.height ?? 0
        var rows: [Range<Int>] = []
        for element in template.elements where element.fieldNames.contains(where: changed.contains) {
            rows.append(element.rows(width: width, height: height))
        }
        try deck.update(section: section, item: item, with: card)
        noteRefresh(of: deck.sections[section].cards[item])
        if !rows.isEmpty, let shown = presented[.card(old.id)] {
            crossfadeOut(.fadingRows(old, index: globalIndex, rows: rows), from: shown.attributes)
        }
        // Nothing moves: no frames but the crossfade's.
        if let tag { markTag(tag) }
    }

    /// Replaces a card's content: the new content shows at once under the old, which fades out.
    public mutating func updateCard(at globalIndex: Int, with card: Card, tag: Int? = nil) throws(DeckEditError) {
        let (section, item) = try deck.location(ofCard: globalIndex)
        let old = deck.sections[section].cards[item]
        let window = oldFrames(margin: max(extent(of: old), extent(of: card)))
        try deck.update(section: section, item: item, with: card)
        noteRefresh(of: deck.sections[section].cards[item])
        if deck.listHeight(of: old) != deck.listHeight(of: card) {
            layout.setCardHeight(section: section, item: item, height: deck.listHeight(of: card))
        }
        if let shown = presented[.card(old.id)] {
            crossfadeOut(.leavingCard(old, index: globalIndex), from: shown.attributes)
        }
        retarget(window: window, appearing: [], tag: tag)
    }

    /// The old content of an updated card (or of its changed rows), drawn over the new as it was
    /// shown and fading out over the transition.
    private mutating func crossfadeOut(_ content: DisplayList.Content, from shown: ItemAttributes) {
        var top = shown
        top.zIndex = 1
        var faded = top
        faded.alpha = 0
        leaving.append(
            LeavingItem(content: content, tween: AttributeTween(from: top, to: faded, duration: transitionDuration)))
    }

    /// Reports `tag` once every tween started under it has ended (at the next frame if none was).
    public mutating func markTag(_ tag: Int) {
        if pendingTags[tag] == nil { pendingTags[tag] = [] }
    }

    /// Vertical space a card takes in the layout (for the capture window).
    private func extent(of card: Card) -> Double {
        (layout.configuration.kind == .list
            ? deck.listHeight(of: card) ?? layout.configuration.cardHeight : layout.configuration.cardHeight)
            + layout.configuration.spacing
    }

    /// Layout frames of the cards and headers near the viewport, before an edit. Whatever an edit of
    /// one card brings into view was within one card's extent of it.
    func oldFrames(margin: Double) -> [ItemKey: ItemAttributes] {
        var items: [LayoutItem] = []
        let offset = animator.presentedOffset
        let reach = margin + Double(layout.viewport.height) / 2
        layout.items(from: offset - reach, to: offset + Double(layout.viewport.height) + reach, into: &items)
        var frames: [ItemKey: ItemAttributes] = [:]
        for item in items {
            switch item {
            case .header(let section, let frame): frames[.header(section)] = ItemAttributes(frame: frame)
            case .card(_, let section, let index, let frame):
                frames[.card(deck.sections[section].cards[index].id)] = ItemAttributes(frame: frame)
            }
        }
        return frames
    }

    private mutating func shiftCardIndices(_ shift: (Int) -> Int) {
        for (key, active) in tweens {
            guard case .card = key else { continue }
            tweens[key]?.index = shift(active.index)
        }
        for (key, shown) in presented {
            guard case .card = key else { continue }
            presented[key]?.index = shift(shown.index)
        }
    }

    /// `values` with every header key renumbered by `shift`; `renumber` lets a value that records
    /// its own section follow the key.
    private static func renumberHeaders<Value>(
        in values: [ItemKey: Value], _ shift: (Int) -> Int, renumber: (inout Value, Int) -> Void = { _, _ in }
    ) -> [ItemKey: Value] {
        var result: [ItemKey: Value] = [:]
        result.reserveCapacity(values.count)
        for (key, value) in values {
            guard case .header(let section) = key else {
                result[key] = value
                continue
            }
            var moved = value
            renumber(&moved, shift(section))
            result[.header(shift(section))] = moved
        }
        return result
    }

    static func sameSideOutside(_ a: Rect, _ b: Rect, top: Double, bottom: Double) -> Bool {
        (a.maxY <= top && b.maxY <= top) || (a.y >= bottom && b.y >= bottom)
    }

    /// Renumbers header keys after sections were inserted or deleted.
    private mutating func shiftHeaders(_ shift: (Int) -> Int) {
        tweens = Self.renumberHeaders(in: tweens, shift) { $0.index = $1 }
        presented = Self.renumberHeaders(in: presented, shift) { $0.index = $1 }
    }

    /// A deleted card's way out: down by 60 % of the viewport, turning a quarter radian, fading.
    private mutating func fall(_ content: DisplayList.Content, from attributes: ItemAttributes) {
        var start = attributes
        start.zIndex = 1
        var end = start
        end.frame = start.frame.offsetBy(dy: Double(layout.viewport.height) * 0.6)
        end.rotation = start.rotation + 0.25
        end.alpha = 0
        leaving.append(
            LeavingItem(content: content, tween: AttributeTween(from: start, to: end, duration: transitionDuration)))
    }

    /// Starts a tween for everything the edit moved that is, was, or is passing on screen.
    mutating func retarget(
        window: [ItemKey: ItemAttributes], appearing: Set<String>, slidingIn: Set<ItemKey> = [], tag: Int?
    ) {
        var targets: [ItemKey: (attributes: ItemAttributes, index: Int)] = [:]
        var after: [LayoutItem] = []
        layout.visibleItems(atOffset: animator.presentedOffset, into: &after)
        for item in after {
            switch item {
            case .header(let section, let frame): targets[.header(section)] = (ItemAttributes(frame: frame), section)
            case .card(let index, let section, let itemIndex, let frame):
                targets[.card(deck.sections[section].cards[itemIndex].id)] = (ItemAttributes(frame: frame), index)
            }
        }
        // Things on screen (or moving) whose new place is off screen still go there.
        let elsewhere = presented.map { ($0.key, $0.value.index) } + tweens.map { ($0.key, $0.value.index) }
        for (key, index) in elsewhere where targets[key] == nil {
            switch key {
            case .header(let section):
                if let frame = layout.headerFrame(ofSection: section) {
                    targets[key] = (ItemAttributes(frame: frame), section)
                }
            case .card:
                if let frame = layout.frame(ofCard: index) { targets[key] = (ItemAttributes(frame: frame), index) }
            }
        }
        var tagged = Set<ItemKey>()
        let top = animator.presentedOffset
        let bottom = top + Double(layout.viewport.height)
        for (key, target) in targets {
            var entrance = Entrance.none
            if case .card(let id) = key, appearing.contains(id) {
                entrance = .grow
            } else if slidingIn.contains(key) {
                entrance = .slideIn
            } else if let pending = tweens[key], pending.tween.startTime == nil {
                // Inserted earlier in this batch and not shown yet: it enters at its place after
                // the whole batch, not where the earlier edit alone would have put it.
                entrance = pending.entrance
            }
            let from: ItemAttributes
            if entrance == .grow {
                from = ItemAttributes(frame: target.attributes.frame, alpha: 0, scale: 0.01)
            } else if entrance == .slideIn {
                // From just past the left edge of the screen.
                from = ItemAttributes(frame: target.attributes.frame.offsetBy(dx: -target.attributes.frame.maxX - 1))
            } else if let shown = presented[key] {
                from = shown.attributes
            } else if let moving = tweens[key] {
                from = moving.tween.peek(at: lastTargetTime ?? 0)
            } else if let old = window[key] {
                from = old
            } else {
                continue
            }
            if from == target.attributes && tweens[key] == nil { continue }
            // Wholly above or wholly below the viewport from start to end, or never drawn and going
            // off screen: it can never be seen, so it does not animate (and long runs of edits
            // between two frames do not pile up tweens).
            let neverShown = presented[key] == nil && (tweens[key].map { $0.tween.startTime == nil } ?? true)
            let targetHidden = target.attributes.frame.maxY <= top || target.attributes.frame.y >= bottom
            if (neverShown && targetHidden)
                || Self.sameSideOutside(from.frame, target.attributes.frame, top: top, bottom: bottom)
            {
                tweens[key] = nil
                continue
            }
            tweens[key] = ActiveTween(
                tween: AttributeTween(from: from, to: target.attributes, duration: transitionDuration),
                index: target.index, entrance: entrance)
            tagged.insert(key)
        }
        if let tag { pendingTags[tag, default: []].formUnion(tagged) }
        settleOffset()
    }

    /// After the content shrank below the scroll, bring the view back to the new end over the
    /// transition, as the cards move (a jump would shift everything at once).
    mutating func settleOffset() {
        let maximum = layout.maxOffset
        // Playback may rest past the end (a last page with room below it, a loop's seam); its
        // next move starts from there.
        guard playback == nil, animator.destination > maximum + 1e-9 else { return }
        animator.redirect(to: maximum, duration: max(transitionDuration, 1e-3), curve: .easeInOut)
    }
}
