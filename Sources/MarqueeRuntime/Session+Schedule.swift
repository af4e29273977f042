import MarqueeCore

/// A deck's `schedule` in a running session: at each rule's start and end (one timer, computed
/// by `Schedule.nextChange`, never polled) the session shows only the sections the rule names,
/// animated as `apply` is, or turns the display off.
///
/// The deck as loaded or applied is kept whole (`ScheduleState.fullDeck`) while the scene shows
/// part of it. Edits act on what is shown; when the rule changes, the shown sections go back
/// into the whole deck in their places (matched by id, else title), sections inserted meanwhile
/// at its end, so an edit made at breakfast is still there at lunch.
struct ScheduleRuntime {
    /// The whole deck while the scene shows a part of it; nil while it shows the whole deck.
    var fullDeck: Deck?
    /// The section names the shown part was chosen by.
    var shownSections: [String]?
    /// Whether the schedule turned the display off.
    var displayOff = false
    /// The link time of the next rule change (the one timer).
    var deadline: Double?
}

extension Session {
    /// The wall-clock time now, as clock elements see it.
    private var wallNow: Double { link.now + scene.clockOffset }

    /// The deck the schedule's rules come from: the whole deck.
    private var wholeDeck: Deck { scheduleState.fullDeck.map { merged(into: $0) } ?? scene.deck }

    /// At the start and after `load` or a reload: the schedule's part of the new deck is shown at
    /// once (a new deck does not animate). `scene.deck` is the whole new deck.
    func startSchedule() {
        scheduleState.fullDeck = nil
        scheduleState.shownSections = nil
        updateSchedule(animated: false)
    }

    /// `apply`: the part of `deck` the schedule shows now (nil when it shows all of it), and the
    /// whole deck kept for later.
    func scheduledPart(of deck: Deck) -> Deck? {
        let state = Schedule.state(deck.schedule, at: wallNow)
        guard let names = state.sections else {
            scheduleState.fullDeck = nil
            scheduleState.shownSections = nil
            return nil
        }
        scheduleState.fullDeck = deck
        scheduleState.shownSections = names
        return Self.part(of: deck, sections: names)
    }

    /// After an `apply`: the display and the timer follow the new rules (the sections already do).
    func rearmSchedule() { updateSchedule(animated: true) }

    /// Called by the loop when the timer is due.
    func scheduleTimerFired() {
        guard let deadline = scheduleState.deadline, link.now >= deadline - 1e-9 else { return }
        scheduleWakeUps += 1
        // On a real display the wall clock may have been set since the timer was (NTP after
        // boot): the rules are read at the wall time now, and the next timer is set from it.
        if !link.isVirtual { scene.clockOffset = Self.wallClockNow() - link.now }
        updateSchedule(animated: true)
    }

    /// Shows what the schedule asks for now, then sets the timer for the next change.
    private func updateSchedule(animated: Bool) {
        let whole = wholeDeck
        let state = Schedule.state(whole.schedule, at: wallNow)
        if state.sections != scheduleState.shownSections {
            let shown = state.sections.map { Self.part(of: whole, sections: $0) } ?? whole
            scheduleState.fullDeck = state.sections == nil ? nil : whole
            scheduleState.shownSections = state.sections
            Log.info("schedule: showing \(state.sections.map { $0.joined(separator: ", ") } ?? "every section")")
            if animated {
                _ = changeScenes { $0.apply(shown, tag: nil) }
            } else if let replaced = changeScenes({ $0.replaceDeck(shown) }) {
                emit(replaced)
            }
        }
        if state.displayOff != scheduleState.displayOff {
            scheduleState.displayOff = state.displayOff
            let rule = Schedule.displayOffRule(whole.schedule, at: wallNow)
            setDisplay(
                on: !state.displayOff, cause: "schedule",
                reason: "the schedule's \"display\": \"off\" rule, \(rule?.hours ?? "now")")
        }
        scheduleState.deadline = Schedule.nextChange(whole.schedule, after: wallNow).map { $0 - scene.clockOffset }
    }

    /// The deck with only the sections `names` names (by id, else by title).
    static func part(of deck: Deck, sections names: [String]) -> Deck {
        var part = deck
        part.sections = deck.sections.filter { shows($0, names) }
        return part
    }

    static func shows(_ section: Section, _ names: [String]) -> Bool {
        if let id = section.id, names.contains(id) { return true }
        return section.title.map { names.contains($0) } ?? false
    }

    /// The whole deck with the shown sections as they are now (edited, deleted, inserted).
    private func merged(into full: Deck) -> Deck {
        guard let names = scheduleState.shownSections else { return full }
        let shown = scene.deck
        var used = Set<Int>()
        var sections: [Section] = []
        func same(_ a: Section, _ b: Section) -> Bool { a.id != nil ? a.id == b.id : a.title == b.title }
        for section in full.sections {
            guard Self.shows(section, names) else {
                sections.append(section)
                continue
            }
            // A shown section deleted meanwhile is gone from the whole deck too.
            if let index = shown.sections.indices.first(where: {
                !used.contains($0) && same(section, shown.sections[$0])
            }) {
                used.insert(index)
                sections.append(shown.sections[index])
            }
        }
        for index in shown.sections.indices where !used.contains(index) { sections.append(shown.sections[index]) }
        // Card ids stay unique: a card inserted while shown takes its id from a hidden one.
        var shownIDs = Set<String>()
        for section in shown.sections { for card in section.cards { shownIDs.insert(card.id) } }
        for index in sections.indices where !Self.shows(sections[index], names) {
            let cards = sections[index].cards
            if cards.contains(where: { shownIDs.contains($0.id) }) {
                sections[index] = Section(
                    title: sections[index].title, id: sections[index].id,
                    cards: cards.filter { !shownIDs.contains($0.id) })
            }
        }
        var whole = shown
        whole.sections = sections
        whole.schedule = full.schedule
        return whole
    }
}
