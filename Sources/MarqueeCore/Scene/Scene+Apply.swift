/// `apply`: a whole new deck state shown as one animated batch of the differences (SPEC §14).
extension Scene {
    /// What an `apply` changed: the cards and sections (`diff`) and which of the deck's settings.
    public struct Application: Equatable, Sendable {
        public var diff: DeckDiff
        public var styleChanged = false
        public var layoutChanged = false
        public var keyframesChanged = false
        public var templatesChanged = false
        public var overlaysChanged = false

        /// The deck's parts besides cards and sections that changed.
        public var settingsChanged: Int {
            [styleChanged, layoutChanged, keyframesChanged, templatesChanged, overlaysChanged].filter { $0 }.count
        }
    }

    /// Turns the shown deck into `new`, animating every change under `tag` as one batch: the
    /// templates, then cards and sections through `DeckDiff` (each step an ordinary animated
    /// edit), then the style and keyframes (shown from the next frame), then the layout (for new
    /// layout settings or templates, everything on screen slides to its new place). `new` must be a valid deck (decoded and checked): nothing here can fail.
    ///
    /// `precomputed` is the difference found from a copy of the deck at `deckVersion` (on a loader
    /// thread, so a big deck's diff costs the frame path nothing); it is replayed if the deck has
    /// not changed since, and found again here if it has.
    public mutating func apply(_ new: Deck, precomputed: (diff: DeckDiff, version: Int)? = nil, tag: Int?)
        -> Application
    {
        // The edits go through a stand-in that holds this scene; swapped in and out so the scene's
        // storage is never shared (a shared copy would make the first edit copy every card).
        var target = SceneDiffTarget(scene: Scene(deck: Deck(), viewport: layout.viewport), tag: tag)
        swap(&self, &target.scene)
        let diff =
            if let precomputed, precomputed.version == target.scene.deckVersion {
                precomputed.diff
            } else {
                DeckDiff(from: target.scene.deck, to: new)
            }
        // The new templates first: the cards the steps insert and update may name templates only
        // the new state defines (each edit checks), and removed ones go with their cards.
        let templatesChanged = target.scene.deck.templates != new.templates
        if templatesChanged { target.scene.deck.templates = new.templates }
        diff.apply(to: &target)
        swap(&self, &target.scene)
        var result = Application(diff: diff)
        result.templatesChanged = templatesChanged
        if deck.style != new.style {
            deck.style = new.style
            result.styleChanged = true
        }
        if deck.bindings != new.bindings {
            deck.bindings = new.bindings
            result.keyframesChanged = true
        }
        if deck.layout != new.layout {
            deck.layout = new.layout
            result.layoutChanged = true
        }
        deck.schedule = new.schedule
        // New bands are shown from the next frame; bands of other heights change the scroll space.
        var spaceChanged = false
        if deck.overlays != new.overlays {
            spaceChanged = deck.overlayExtent != new.overlayExtent
            deck.overlays = new.overlays
            result.overlaysChanged = true
        }
        // A template's height is its cards' height: new templates may move every card.
        if result.layoutChanged || templatesChanged || spaceChanged { relayout(tag: tag) }
        isDirty = true
        return result
    }

    /// Builds the layout again from the deck (a new layout configuration, a header that came or
    /// went) and slides what is on screen to its new place.
    mutating func relayout(tag: Int?) {
        let window = oldFrames(margin: Double(layout.viewport.height))
        layout = CollectionLayout(deck: deck, viewport: Self.scrollViewport(screen: screenSize, deck: deck))
        retarget(window: window, appearing: [], tag: tag)
    }
}

/// The scene as a diff's target: each step is the scene's own animated edit under one tag.
private struct SceneDiffTarget: DeckDiffTarget {
    var scene: Scene
    let tag: Int?

    mutating func perform(_ step: DeckDiffStep) {
        // Steps are valid by construction (DeckDiff found each place in this very deck).
        do throws(DeckEditError) {
            switch step {
            case .deleteCard(let id): try scene.deleteCard(.id(id), tag: tag)
            case .insertSection(let section, let at): try scene.insertSection(section, at: at, tag: tag)
            case .insertCard(let card, let section, let after):
                try scene.insertCard(card, section: section, item: try place(after: after, in: section), tag: tag)
            case .moveCard(let id, let section, let after):
                // The place is counted without the moved card, as `move`'s S:I is.
                var item = try place(after: after, in: section)
                if let from = scene.deck.sections[section].cards.position(ofID: id), from < item { item -= 1 }
                try scene.moveCard(.id(id), to: .sectionItem(section: section, item: item), tag: tag)
            case .updateCard(let card):
                // Only fields of a templated card changed: only the elements showing them
                // crossfade, as `update` does; anything else is a whole new card, as `replace`.
                let index = try scene.deck.globalIndex(of: .id(card.id))
                let (section, item) = try scene.deck.location(ofCard: index)
                let old = scene.deck.sections[section].cards[item]
                if let patch = CardPatch(fieldsOnlyFrom: old, to: card) {
                    try scene.updateCard(.id(card.id), with: patch, tag: tag)
                } else {
                    try scene.updateCard(.id(card.id), with: card, tag: tag)
                }
            case .deleteSection(let at): try scene.deleteSection(at: at, tag: tag)
            case .retitleSection(let at, let title, let id):
                let hadHeader = scene.deck.sections[at].title != nil
                scene.deck.sections[at].title = title
                scene.deck.sections[at].id = id
                // A header that comes or goes changes every place below it.
                if hadHeader != (title != nil) { scene.relayout(tag: tag) }
            }
        } catch {
            preconditionFailure("Scene.apply: a diff step failed: \(step): \(error.message)")
        }
    }

    /// The item right after the card `after` in `section` (0 when nil).
    private func place(after: String?, in section: Int) throws(DeckEditError) -> Int {
        guard let after else { return 0 }
        guard let position = scene.deck.sections[section].cards.position(ofID: after) else {
            throw DeckEditError("no card \(after) in section \(section)")
        }
        return position + 1
    }
}
