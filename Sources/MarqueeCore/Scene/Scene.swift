/// The state of the show (deck, layout, scroll) and the one place where it becomes a frame:
/// `frame(at:into:)` is a function of that state and the frame's target time.
public struct Scene: Sendable {
    public private(set) var deck: Deck
    public private(set) var layout: CollectionLayout
    public private(set) var animator = ScrollAnimator()
    /// Something changed that the screen does not show yet (a new deck, a jump, the first frame).
    public private(set) var isDirty = true
    /// Reused each frame so that building the display list does not allocate.
    private var visible: [LayoutItem] = []

    public init(deck: Deck, viewport: PixelSize) {
        self.deck = deck
        self.layout = CollectionLayout(deck: deck, viewport: viewport)
    }

    public var viewport: PixelSize { layout.viewport }

    /// True while the next vblank should draw a frame.
    public var needsFrame: Bool { isDirty || animator.isAnimating }

    public var presentedOffset: Double { animator.presentedOffset }

    /// True while a change has been applied that no presented frame shows yet: a new deck, or a
    /// scroll whose first frame has not been drawn. `snapshot` waits for that frame.
    public var hasUnpresentedChange: Bool {
        isDirty || (animator.animation.map { $0.startTime == nil } ?? false)
    }

    /// Shows another deck, keeping the scroll offset where it still fits. A running scroll ends
    /// (its event is returned, marked interrupted).
    public mutating func replaceDeck(_ newDeck: Deck) -> ScrollFinished? {
        deck = newDeck
        layout = CollectionLayout(deck: newDeck, viewport: layout.viewport)
        isDirty = true
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
    /// advancing the scroll. Returns the event of a scroll that this frame finishes.
    public mutating func frame(at time: FrameTime, into list: inout DisplayList) -> ScrollFinished? {
        let finished = animator.advance(to: time.targetTimestamp)
        isDirty = false
        let offset = animator.presentedOffset
        list.offset = offset
        list.percent = layout.percent(atOffset: offset)
        list.background = deck.bindings.background?.color(at: list.percent) ?? deck.style.background
        list.items.removeAll(keepingCapacity: true)
        visible.removeAll(keepingCapacity: true)
        layout.visibleItems(atOffset: offset, into: &visible)
        for item in visible {
            switch item {
            case .header(let section, let frame):
                list.items.append(.init(content: .header(section: section), frame: frame.offsetBy(dy: -offset)))
            case .card(let index, let section, let itemIndex, let frame):
                list.items.append(
                    .init(
                        content: .card(index: index, section: section, item: itemIndex),
                        frame: frame.offsetBy(dy: -offset)))
            }
        }
        if let bindings = deck.bindings.cards { apply(bindings, to: &list) }
        return finished
    }

    /// Sets each card's attributes from the deck's card keyframes (SPEC §4).
    private func apply(_ bindings: CardBindings, to list: inout DisplayList) {
        let viewportHeight = Double(layout.viewport.height)
        for index in list.items.indices {
            guard case .card = list.items[index].content else { continue }
            let frame = list.items[index].frame
            let input: Double
            switch bindings.input {
            case .percent: input = list.percent
            case .position: input = (frame.y + frame.height / 2) / viewportHeight
            }
            if let translateX = bindings.translateX { list.items[index].frame.x += translateX.value(at: input) }
            if let opacity = bindings.opacity { list.items[index].alpha = opacity.value(at: input) }
            if let scale = bindings.scale { list.items[index].scale = scale.value(at: input) }
            if let rotation = bindings.rotation { list.items[index].rotation = rotation.value(at: input) }
            if let tint = bindings.tint { list.items[index].tint = tint.color(at: input) }
        }
    }
}
