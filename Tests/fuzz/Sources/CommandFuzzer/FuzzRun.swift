import MarqueeCore
import MarqueeProtocol

/// libFuzzer's callback: the input is a byte stream of commands. It is fed to the decoder in
/// chunks whose sizes the input itself chooses (so line ends fall anywhere), and every decoded
/// command is applied to a scene, with frames drawn in between, as the session would. An input
/// whose first line starts with `{` begins with a deck: the commands then run on that deck, if it
/// decodes. Any broken invariant traps, which libFuzzer reports as a crash with the input that
/// caused it.
func fuzzCommands(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var run = FuzzRun()
    if bytes.first == UInt8(ascii: "{") {
        let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        do {
            run = FuzzRun(deck: try DeckDecoder.decode(bytes: Array(bytes[..<end])))
        } catch {
            FuzzRun.checkBounded(error.summary)
            return 0
        }
        bytes.removeFirst(min(bytes.count, end + 1))
    }
    var decoder = CommandDecoder()
    var lines: [DecodedLine] = []
    var index = 0
    var chunk = 1
    while index < bytes.count {
        let end = min(bytes.count, index + chunk)
        decoder.feed(bytes[index..<end], into: &lines)
        chunk = Int(bytes[index] % 61) + 1
        index = end
    }
    decoder.finish(into: &lines)
    for line in lines.prefix(300) {
        switch line {
        case .command(let command): run.apply(command)
        case .invalid(let message): FuzzRun.checkBounded(message)
        }
        run.drawFrames(1)
    }
    run.drawFrames(40)
    return 0
}

/// A scene driven like the session drives it, with its invariants checked after every frame.
struct FuzzRun {
    var scene: Scene
    var list = DisplayList()
    var time = 0.0
    var batch: [Command]?

    init(deck: Deck = FuzzRun.deck()) { scene = Scene(deck: deck, viewport: PixelSize(width: 320, height: 240)) }

    /// Every reply must stay one short line, whatever the input quoted.
    static func checkBounded(_ message: String) {
        invariant(message.utf8.count <= 1_000, "a message of \(message.utf8.count) bytes")
    }

    static func deck() -> Deck {
        var deck = Deck()
        deck.layout.cardHeight = 60
        deck.layout.spacing = 8
        deck.layout.insets = EdgeInsets(all: 10)
        deck.sections = (0..<3).map { section in
            Section(
                title: section == 1 ? nil : "S\(section)",
                cards: (0..<5).map { Card(id: "c\(section)-\($0)", title: "\($0)") })
        }
        return deck
    }

    mutating func apply(_ command: Command) {
        if batch != nil {
            switch command {
            case .commit:
                let before = scene.deck
                do throws(SceneBatchError) {
                    try scene.performAll(batch!.map(Self.sceneEdit), tag: 3)
                } catch {
                    Self.checkBounded(error.error.message)
                    invariant(scene.deck == before, "a failed batch changed the deck")
                }
                batch = nil
            case let edit where edit.isEdit: batch!.append(edit)
            default: batch = nil
            }
            return
        }
        switch command {
        case .scrollTo, .scrollBy:
            // As the session does: a scroll stops playback (a failing one would not; close enough).
            scene.stopPlayback()
        default: break
        }
        switch command {
        case .scrollTo(let target, let options):
            let result = scene.scroll(
                to: target, duration: Self.bounded(options.duration ?? 0.6), curve: options.curve ?? .easeInOut, tag: 1)
            if case .failure(let error) = result { Self.checkBounded(error.message) }
        case .scrollBy(.rows(let rows), let options):
            _ = scene.scroll(
                to: scene.target(byRows: rows), duration: Self.bounded(options.duration ?? 0.6), curve: .easeInOut,
                tag: 1)
        case .scrollBy(.pixels(let pixels), _):
            _ = scene.scroll(
                to: .offset(max(0, scene.animator.destination + pixels)), duration: 0.3, curve: .linear, tag: 1)
        case .wait(.seconds(let seconds)):
            drawFrames(Int(min(seconds, 2) * 60))
        case .wait(.idle):
            var frames = 0
            // A ticker never ends; `wait idle` waits for everything else, as in the session.
            while scene.needsFrameBesidesTicker, frames < 100_000 {
                drawFrames(1)
                frames += 1
            }
            invariant(!scene.needsFrameBesidesTicker, "wait idle never ended")
        case .appear(let stagger, let duration):
            scene.appear(stagger: min(stagger ?? 0.08, 0.5), duration: duration.map { min($0, 2) }, tag: 2)
        case .batch:
            batch = []
        case .apply(.json(let text)):
            // As the session does it: decoded (off the frame path there), then the difference.
            guard let new = try? DeckDecoder.decode(bytes: Array(text.utf8)) else { break }
            _ = scene.apply(new, tag: 4)
            invariant(scene.deck.sections == new.sections, "apply did not reach the new state")
        case .play(let settings):
            // Dwells and moves bounded, as waits are, so a run shows pages turning.
            var bounded = settings
            bounded.dwell = settings.dwell.map { min($0, 0.5) }
            bounded.duration = settings.duration.map { Self.bounded($0) }
            if scene.layout.cardCount > 0 { _ = scene.play(bounded, now: time) }
        case .pause: try? scene.pausePlayback(now: time)
        case .resume: try? scene.resumePlayback(now: time)
        case .stop: scene.stopPlayback()
        case .alert(let message):
            // As the session does it: an unknown template is refused and changes nothing.
            if let template = scene.deck.templates[message.template] {
                scene.showAlert(
                    Card(id: "alert", template: message.template, fields: message.fields), template: template)
            }
        case .alertClear:
            _ = scene.clearAlert()
        case .commit, .snapshot, .load, .quit, .apply, .display:
            break
        default:
            do throws(DeckEditError) {
                try Self.edit(command, &scene)
            } catch {
                Self.checkBounded(error.message)
            }
        }
    }

    static func sceneEdit(_ command: Command) -> SceneEdit {
        switch command {
        case .insert(let place, let card): .insert(place, card)
        case .delete(let reference): .delete(reference)
        case .move(let reference, let place): .move(reference, to: place)
        case .update(let reference, let patch): .update(reference, patch)
        case .replace(let reference, let card): .replace(reference, card)
        case .insertSection(let index, let section): .insertSection(index, section)
        case .deleteSection(let index): .deleteSection(index)
        default: preconditionFailure("not an edit: \(command)")
        }
    }

    static func edit(_ command: Command, _ scene: inout Scene) throws(DeckEditError) {
        switch command {
        case .insert(let place, let card): try scene.insertCard(card, at: place)
        case .delete(let reference): try scene.deleteCard(reference)
        case .move(let reference, let place): try scene.moveCard(reference, to: place)
        case .update(let reference, let patch): try scene.updateCard(reference, with: patch)
        case .replace(let reference, let card): try scene.updateCard(reference, with: card)
        case .insertSection(let position, let section): try scene.insertSection(section, at: position)
        case .deleteSection(let position): try scene.deleteSection(at: position)
        default: break
        }
    }

    /// Scroll durations held to 10 s, as long as the longest transition a deck may ask for: the
    /// protocol takes up to a day, and `wait idle` after such a scroll would be a day of frames
    /// here (the invariants, not the length of a wait, are what this target checks).
    static func bounded(_ duration: Double) -> Double { min(duration, 10) }

    mutating func drawFrames(_ count: Int) {
        for _ in 0..<max(0, count) {
            time += 1.0 / 60
            _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
            checkInvariants()
        }
    }

    func checkInvariants() {
        let layout = scene.layout
        invariant(layout.cardCount == scene.deck.cardCount, "layout and deck disagree on the card count")
        invariant(layout.sectionCount == scene.deck.sections.count, "layout and deck disagree on sections")
        invariant(list.offset >= 0, "negative offset")
        // Playback may rest past the end (a last page with room below, a loop's seam).
        let playing = scene.playback != nil
        invariant(
            playing || scene.animator.isAnimating || list.offset <= layout.maxOffset + 1e-6, "offset left past the end")
        invariant(playing || scene.animator.destination <= layout.maxOffset + 1e-6, "scrolling past the end")
        if let period = scene.loopPeriod, !scene.animator.isAnimating {
            invariant(list.offset < period + layout.configuration.insets.top + 1e-6, "a loop's offset kept growing")
        }
        invariant(list.percent >= 0 && list.percent <= 1, "percent outside [0, 1]")
        var seen = Set<String>()
        for item in list.items {
            invariant(
                item.frame.x.isFinite && item.frame.y.isFinite && item.alpha >= 0 && item.alpha <= 1, "bad attributes")
            if case .card(let listed, let index, let section, let position) = item.content {
                let card = scene.deck.sections[section].cards[position]
                invariant(listed == card, "the listed card is not the deck's")
                // A looping deck draws its copies: a card may show twice, never in one copy.
                invariant(seen.insert(card.id).inserted || scene.loopPeriod != nil, "card \(card.id) drawn twice")
                invariant(scene.deck.globalIndex(ofCardWithID: card.id) == index, "index out of step")
            }
        }
    }
}

/// A failed invariant stops the run with its message. `precondition` would do, but an optimized
/// build drops its message, and the fuzzer runs optimized: CI's log would show only where.
func invariant(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant: \(message())") }
}
