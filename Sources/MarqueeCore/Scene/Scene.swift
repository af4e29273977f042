/// The state of the show (deck, layout, scroll, transitions) and the one place where it becomes a
/// frame: `frame(at:into:)` is a function of that state and the frame's target time.
public struct Scene: Sendable {
    public internal(set) var deck: Deck {
        // Without `oldValue`, the observer does not stop edits from happening in place.
        didSet { deckVersion &+= 1 }
    }
    /// Changes whenever the deck does: a difference computed from a copy of the deck (off the
    /// frame path) still applies while this is the copy's version.
    public private(set) var deckVersion = 0
    public internal(set) var layout: CollectionLayout
    public internal(set) var animator = ScrollAnimator()
    /// Something changed that the screen does not show yet (a new deck, a jump, the first frame).
    public internal(set) var isDirty = true

    /// What identifies a drawn thing across edits: a card by id, a header by its section.
    enum ItemKey: Hashable, Sendable {
        case card(String)
        case header(Int)
    }

    /// A card or header moving from one set of attributes to another. `index` is the card's
    /// global index (or the header's section), kept current across edits.
    struct ActiveTween: Sendable {
        var tween: AttributeTween
        var index: Int
        /// How the item enters, when it is new: its start is then derived from its final place,
        /// and derived again if a later edit of the same batch moves that place before any frame
        /// has shown it.
        var entrance: Entrance = .none
    }

    /// How a new item arrives: an inserted card grows where it ends up; an inserted section's
    /// header and cards slide in from the left to where they end up.
    enum Entrance: Sendable {
        case none
        case grow
        case slideIn
    }

    /// A card or header that is no longer in the deck, drawn until its way out ends.
    struct LeavingItem: Sendable {
        var content: DisplayList.Content
        var tween: AttributeTween
    }

    /// What the last frame drew (before keyframe bindings), in content coordinates, with indices.
    struct Presented: Sendable {
        var attributes: ItemAttributes
        var index: Int
    }

    var tweens: [ItemKey: ActiveTween] = [:]
    var leaving: [LeavingItem] = []
    var presented: [ItemKey: Presented] = [:]
    /// Operations tagged by the command that asked for them (a batch, an appear sequence); their
    /// tag is reported once every tween they started has ended.
    var pendingTags: [Int: Set<ItemKey>] = [:]
    /// The target time of the last frame drawn.
    var lastTargetTime: Double?
    /// Seconds from the display link's clock to the wall clock (seconds since the epoch), for
    /// clock elements: set by whoever owns the link.
    public var clockOffset: Double = 0
    /// The link time at which the next card on screen goes stale, or, while one fades, the last
    /// frame's (draw another): when a frame is needed though nothing else moves.
    public internal(set) var nextStaleChange: Double?
    /// Cards updated after their `expires` had passed: fresh again until removed (SPEC §14).
    var refreshedAfterExpiry: Set<String> = []
    /// A running `play` (pages, cards or the ticker), nil when nothing plays (Scene+Playback).
    public internal(set) var playback: Playback?

    /// Reused each frame so that building the display list does not allocate.
    private var visible: [LayoutItem] = []
    /// Each drawn thing with its attributes in the copy of the deck it is drawn in (`shift`: that
    /// copy's distance from the deck itself; 0 unless the deck loops).
    private var drawn: [(content: DisplayList.Content, key: ItemKey?, attributes: ItemAttributes, shift: Double)] = []

    /// The whole screen; `viewport` is the part of it the content scrolls in.
    public internal(set) var screenSize: PixelSize
    /// A message over everything (`alert`), fading in or out; nil when none is shown.
    public internal(set) var alert: Alert?

    /// `viewport` is the whole screen: the deck's overlays take their bands from it.
    public init(deck: Deck, viewport: PixelSize) {
        self.deck = deck
        self.screenSize = viewport
        self.layout = CollectionLayout(deck: deck, viewport: Self.scrollViewport(screen: viewport, deck: deck))
    }

    /// The space the content scrolls in: the screen less the deck's overlay bands. Scrolling,
    /// `percent`, `scroll-to` and paging all use its height.
    public var viewport: PixelSize { layout.viewport }

    /// True while the next vblank should draw a frame.
    public var needsFrame: Bool { needsFrameBesidesTicker || isTickerRunning }

    public var isTransitioning: Bool { !tweens.isEmpty || !leaving.isEmpty }

    public var presentedOffset: Double { animator.presentedOffset }

    /// True while a change has been applied that no presented frame shows yet: a new deck, or a
    /// scroll or transition whose first frame has not been drawn. `snapshot` waits for that frame.
    public var hasUnpresentedChange: Bool {
        isDirty || (animator.animation.map { $0.startTime == nil } ?? false)
            || tweens.values.contains { $0.tween.startTime == nil } || leaving.contains { $0.tween.startTime == nil }
            || (alert.map { $0.start == nil } ?? false)
    }

    /// Shows another deck, keeping the scroll offset where it still fits. A running scroll ends
    /// (its event is returned, marked interrupted); running transitions end where they are going.
    public mutating func replaceDeck(_ newDeck: Deck) -> ScrollFinished? {
        deck = newDeck
        layout = CollectionLayout(deck: newDeck, viewport: Self.scrollViewport(screen: screenSize, deck: newDeck))
        isDirty = true
        refreshedAfterExpiry.removeAll()
        tweens.removeAll()
        leaving.removeAll()
        presented.removeAll()
        return animator.jump(to: min(animator.presentedOffset, layout.maxOffset))
    }

    /// Starts a scroll to `target` (SPEC §3). On an invalid target nothing changes.
    public mutating func scroll(
        to target: ScrollTarget, duration: Double, curve: TimingCurve, tag: Int
    ) -> Result<ScrollFinished?, ScrollTargetError> {
        switch target.resolve(in: layout, deck: deck) {
        case .failure(let error): return .failure(error)
        case .success(let offset):
            return .success(animator.scroll(to: offset, duration: duration, curve: curve, tag: tag))
        }
    }

    /// The target of `scroll-by N`: N rows past the row at the top of the viewport (a row is a
    /// card in a list, `columns` cards in a grid), counted from where the scroll is heading.
    public func target(byRows rows: Int) -> ScrollTarget {
        guard layout.cardCount > 0 else { return .start }
        // The row at the top is the one under the destination's first half pixel. Section markers
        // hold no cards, so the cards before them count the same as before the next row.
        let (_, before) = layout.index.position(containingOffset: animator.destination + 0.5)
        let topCard = min(before.cards, layout.cardCount - 1)
        return .card(min(max(topCard + rows * layout.columns, 0), layout.cardCount - 1))
    }

    /// Builds the display list for the frame that will be shown at `time.targetTimestamp`,
    /// advancing the scroll and the transitions. Returns the event of a scroll that this frame
    /// finishes, and appends the tags of tagged changes that ended to `finishedTags`.
    public mutating func frame(at time: FrameTime, into list: inout DisplayList, finishedTags: inout [Int])
        -> ScrollFinished?
    {
        let finished = advanceScroll(to: time.targetTimestamp)
        isDirty = false
        let target = time.targetTimestamp
        lastTargetTime = target
        let offset = animator.presentedOffset
        list.time = target
        list.clockTime = target + clockOffset
        list.offset = offset
        list.percent = percent(atOffset: offset)
        list.background = deck.bindings.background?.color(at: list.percent) ?? deck.style.background
        list.items.removeAll(keepingCapacity: true)
        drawn.removeAll(keepingCapacity: true)
        var endedKeys: [ItemKey] = []
        // Leaving things move once a frame, whatever copy of a looping deck they are drawn in.
        var leavingNow: [(content: DisplayList.Content, attributes: ItemAttributes)] = []
        if !leaving.isEmpty {
            var stillLeaving: [LeavingItem] = []
            for var item in leaving {
                let (attributes, ended) = item.tween.value(at: target)
                if !ended { stillLeaving.append(item) }
                if attributes.alpha > 0 { leavingNow.append((item.content, attributes)) }
            }
            leaving = stillLeaving
        }
        // One pass unless the deck loops (`play ... wrap=loop`, the ticker): then once for each
        // copy of the deck the viewport meets, each drawn `shift` further down.
        var copies = copyShifts(atOffset: offset)
        while let shift = copies.next() {
            let copyStart = drawn.count
            visible.removeAll(keepingCapacity: true)
            layout.visibleItems(atOffset: offset - shift, into: &visible)
            for item in visible {
                let key: ItemKey
                let content: DisplayList.Content
                switch item {
                case .header(let section, _):
                    key = .header(section)
                    content = .header(section: section)
                case .card(let index, let section, let itemIndex, _):
                    let card = deck.sections[section].cards[itemIndex]
                    key = .card(card.id)
                    content = .card(card, index: index, section: section, item: itemIndex)
                }
                var attributes = ItemAttributes(frame: item.frame)
                // No key hashed while nothing is tweening (a scroll's every frame).
                if !tweens.isEmpty, var active = tweens[key] {
                    let (value, ended) = active.tween.value(at: target)
                    attributes = value
                    if ended { endedKeys.append(key) } else { tweens[key] = active }
                }
                drawn.append((content, key, attributes, shift))
            }
            // Tweening things whose layout place is off screen may still pass through the viewport;
            // whether they reach it is decided below, with everything else.
            if tweens.count > 0 {
                for (key, active) in tweens
                where !drawn[copyStart...].contains(where: { $0.key == key }) && !endedKeys.contains(key) {
                    var active = active
                    let (attributes, ended) = active.tween.value(at: target)
                    if ended { endedKeys.append(key) } else { tweens[key] = active }
                    switch key {
                    case .header(let section): drawn.append((.header(section: section), key, attributes, shift))
                    case .card:
                        guard let location = try? deck.location(ofCard: active.index) else { continue }
                        drawn.append(
                            (
                                .card(
                                    deck.sections[location.section].cards[location.item], index: active.index,
                                    section: location.section, item: location.item), key, attributes, shift
                            ))
                    }
                }
            }
            for item in leavingNow { drawn.append((item.content, nil, item.attributes, shift)) }
        }
        for key in endedKeys { tweens[key] = nil }
        if drawn.contains(where: { $0.attributes.zIndex != 0 }) {
            // Stable: equal z keeps layout order.
            let ordered = drawn.enumerated().sorted {
                ($0.element.attributes.zIndex, $0.offset) < ($1.element.attributes.zIndex, $1.offset)
            }
            drawn = ordered.map(\.element)
        }
        // Content coordinates to the screen's: the scroll space starts below the top bands.
        let spaceTop = scrollSpaceTop
        for entry in drawn {
            list.items.append(
                DisplayList.Item(
                    content: entry.content, attributes: entry.attributes, offset: offset - entry.shift - spaceTop))
        }
        if let bindings = deck.bindings.cards { apply(bindings, to: &list) }
        applyStaleness(to: &list, at: target)
        // The list (and so the trace) holds exactly what is drawn: items whose scaled, turned and
        // translated box meets the viewport. Transitions move things through and past the edges
        // (a falling card, a header sliding in from the left, a card moved from far away), so
        // this is decided on the final attributes, after the keyframes. `presented` keeps the
        // same items, so an edit restarts from what was on screen.
        presented.removeAll(keepingCapacity: true)
        var kept = 0
        let space = Rect(
            x: 0, y: spaceTop, width: Double(layout.viewport.width), height: Double(layout.viewport.height))
        for (index, entry) in drawn.enumerated() where list.items[index].boundingBox.intersects(space) {
            if kept != index { list.items[kept] = list.items[index] }
            kept += 1
            guard let key = entry.key else { continue }
            switch entry.content {
            case .card(_, let index, _, _): presented[key] = Presented(attributes: entry.attributes, index: index)
            case .header(let section): presented[key] = Presented(attributes: entry.attributes, index: section)
            case .leavingCard, .fadingRows, .leavingHeader, .band, .alert: break
            }
        }
        list.items.removeLast(list.items.count - kept)
        appendOverlays(to: &list, at: target)
        reportFinishedTags(into: &finishedTags)
        return finished
    }

    /// `frame(at:into:finishedTags:)` for callers that tag no changes.
    public mutating func frame(at time: FrameTime, into list: inout DisplayList) -> ScrollFinished? {
        var ignored: [Int] = []
        return frame(at: time, into: &list, finishedTags: &ignored)
    }

    /// The tags whose tweens have all ended (and whose leaving cards are gone).
    private mutating func reportFinishedTags(into finishedTags: inout [Int]) {
        guard !pendingTags.isEmpty else { return }
        for (tag, keys) in pendingTags where keys.allSatisfy({ tweens[$0] == nil }) && leaving.isEmpty {
            finishedTags.append(tag)
            pendingTags[tag] = nil
        }
        finishedTags.sort()
    }

    /// Sets each card's attributes from the deck's card keyframes (SPEC §4), on top of any
    /// transition: opacity and scale multiply, rotation and translation add.
    private func apply(_ bindings: CardBindings, to list: inout DisplayList) {
        let viewportHeight = Double(layout.viewport.height)
        for index in list.items.indices {
            switch list.items[index].content {
            case .card, .leavingCard, .fadingRows: break
            case .header, .leavingHeader, .band, .alert: continue
            }
            let frame = list.items[index].frame
            let input: Double
            switch bindings.input {
            case .percent: input = list.percent
            case .position: input = (frame.y - scrollSpaceTop + frame.height / 2) / viewportHeight
            }
            if let translateX = bindings.translateX { list.items[index].frame.x += translateX.value(at: input) }
            if let opacity = bindings.opacity { list.items[index].alpha *= opacity.value(at: input) }
            if let scale = bindings.scale { list.items[index].scale *= scale.value(at: input) }
            if let rotation = bindings.rotation { list.items[index].rotation += rotation.value(at: input) }
            if let tint = bindings.tint { list.items[index].tint = tint.color(at: input) }
        }
    }
}
