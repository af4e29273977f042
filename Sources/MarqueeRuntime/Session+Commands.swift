import MarqueeCore
import MarqueeProtocol
import MarqueeRender

/// Applying each source's queued commands to the scene, with their replies.
extension Session {
    func applyQueuedCommands() throws(RuntimeError) {
        for source in sources where !quitting {
            while !quitting {
                if let held = source.hold {
                    guard release(held, source) else { break }
                    source.hold = nil
                }
                guard let (seq, line, bytes) = source.next() else { break }
                switch line {
                case .invalid(let message):
                    if source.openBatch != nil, source.openBatch?.problem == nil {
                        source.openBatch?.problem = "line \(seq) was invalid: \(message)"
                    }
                    source.reply(error: message, seq: seq, json: &json)
                case .command(let command):
                    if source.openBatch != nil {
                        collect(command, seq: seq, bytes: bytes, source)
                    } else {
                        apply(command, seq: seq, source)
                    }
                }
            }
        }
    }

    /// Whether a held command may finish now; answers it when it does.
    private func release(_ held: CommandSource.Hold, _ source: CommandSource) -> Bool {
        switch held {
        case .seconds(let seq, let deadline):
            guard link.now >= deadline - 1e-9 else { return false }
            source.reply(ok: seq, json: &json)
        case .idle(let seq):
            // A running ticker never ends: idle means everything else has.
            // Pictures still decoding or fading in are part of the change the script waits for.
            guard !scene.needsFrameBesidesTicker, !link.isFramePending || scene.isTickerRunning,
                !renderer.hasUnsettledImages
            else {
                return refuseWaitingForDisplay("wait idle", seq: seq, source)
            }
            // The pictures that failed in the frames waited for are reported before the reply.
            if images.hasNewFailures { takeImageChanges() }
            source.reply(ok: seq, json: &json)
        case .snapshot(let seq, let path):
            guard !scene.hasUnpresentedChange else { return refuseWaitingForDisplay("snapshot", seq: seq, source) }
            writeSnapshot(path, seq: seq, source)
        case .load(let seq, let load):
            guard let result = load.result else { return false }
            // The next deck waiting (from any source) may be read now.
            defer { loader.done(load) }
            do throws(RuntimeError) {
                try replaceDeck(with: try result.get(), path: load.path, restartsPlayback: true)
                source.reply(ok: seq, json: &json)
            } catch {
                source.reply(error: "load: " + error.message.replacingNewlines, seq: seq, json: &json)
            }
        case .apply(let seq, let load):
            guard let result = load.result else { return false }
            defer { loader.done(load) }
            do throws(RuntimeError) {
                try applyDeck(
                    try result.get(), path: load.text == nil ? load.path : nil, precomputed: load.precomputed, seq: seq,
                    source)
            } catch {
                source.reply(error: "apply: " + error.message.replacingNewlines, seq: seq, json: &json)
            }
        }
        return true
    }

    /// A `wait idle` or `snapshot` that needs a frame the display will not draw: while `display
    /// off` or a schedule rule keeps it off (only a command or the schedule undoes that, and this
    /// source's queue, which may hold the `display on`, is held), it is answered at once with an
    /// error; while the display is gone for a hardware reason it waits, as the display comes back
    /// by itself, unless standard input ended and the run ends with it. Returns whether it was
    /// answered.
    private func refuseWaitingForDisplay(_ command: String, seq: Int, _ source: CommandSource) -> Bool {
        if let reason = displayOffReason {
            source.reply(
                error: "\(command): the display is off (\(reason)); send display on first", seq: seq, json: &json)
            return true
        }
        if let gone = displayGone, source === standardInput, !source.isReading, endsWithInput {
            source.reply(
                error: "\(command): input ended while the display is gone (\(gone)); not waiting for it",
                seq: seq, json: &json)
            return true
        }
        return false
    }

    /// Shows `deck` as one animated batch of its differences from the shown deck; the reply
    /// counts them and `batch-finished` follows. A style whose fonts cannot be opened changes
    /// nothing.
    private func applyDeck(
        _ deck: Deck, path: String?, precomputed: (diff: DeckDiff, version: Int)?, seq: Int, _ source: CommandSource
    ) throws(RuntimeError) {
        if deck.templates != scene.deck.templates || deck.style.bodyFont != scene.deck.style.bodyFont {
            try Self.checkElementFonts(deck, fontPath: options.fontPath)
        }
        if deck.style != scene.deck.style {
            try Self.checkFontFile(options.fontPath)
            do {
                try prepareRenderers(style: deck.style)
            } catch {
                throw RuntimeError(error.message)
            }
        }
        // Image fields of a state read from a file are relative to its folder, as a loaded deck's
        // are; a state given on the line keeps the folder of the deck shown.
        if let path {
            setImagePaths(imageResolver(deckPath: path))
            imageDeckPath = path
        }
        let tag = tag(for: source, seq: seq)
        let previousPlayback = scene.deck.playback
        // With a schedule showing part of the deck, that part is applied (the difference found
        // on the loader's thread is from the whole deck: found again here).
        let part = scheduledPart(of: deck)
        let applied = changeScenes { $0.apply(part ?? deck, precomputed: part == nil ? precomputed : nil, tag: tag) }
        followDeckPlayback(deck.playback, previous: previousPlayback, restart: false)
        rearmSchedule()
        changeScenes { $0.markTag(tag) }
        tagEvents[tag] = "batch-finished"
        json.reset()
        Messages.applied(seq: seq, applied, into: &json)
        source.output.writeLine(json.bytes)
    }

    private func apply(_ command: Command, seq: Int, _ source: CommandSource) {
        switch command {
        case .scrollTo(let target, let options):
            // A scroll stops playback, but a scroll that fails changes nothing.
            if case .success = target.resolve(in: scene.layout, deck: scene.deck) { endPlayback(reason: "scroll") }
            scroll(to: target, options, seq: seq, source)
        case .scrollBy(let amount, let options):
            endPlayback(reason: "scroll")
            switch amount {
            case .rows(let rows): scroll(to: scene.target(byRows: rows), options, seq: seq, source)
            case .pixels(let pixels):
                scroll(to: .offset(max(0, scene.animator.destination + pixels)), options, seq: seq, source)
            }
        case .wait(.seconds(let seconds)):
            source.hold = .seconds(seq: seq, deadline: link.now + seconds)
        case .wait(.idle):
            source.hold = .idle(seq: seq)
        case .snapshot(let path):
            source.hold = .snapshot(seq: seq, path: path)
        case .load(let path):
            // Read and decoded on the loader's thread, one deck at a time for all sources (queued
            // behind the loads and applies asked for before); the reply comes when the deck is
            // shown, and this source's later commands wait behind it as they do behind a `wait`.
            do throws(RuntimeError) {
                source.hold = .load(seq: seq, loader.queue(try paths.checkRead(path)))
            } catch {
                source.reply(error: "load: " + error.message.replacingNewlines, seq: seq, json: &json)
            }
        case .apply(let deckSource):
            // Read and decoded on the loader's thread, queued like `load`; the source's later
            // commands wait. The thread also finds the difference from the deck shown when it
            // starts (a copy costs nothing until the scene changes it), so a big deck's diff is
            // off the frame path.
            do throws(RuntimeError) {
                switch deckSource {
                case .file(let path):
                    source.hold = .apply(seq: seq, loader.queue(try paths.checkRead(path), findsDifference: true))
                case .json(let text): source.hold = .apply(seq: seq, loader.queue(text: text))
                }
            } catch {
                source.reply(error: "apply: " + error.message.replacingNewlines, seq: seq, json: &json)
            }
        case .quit:
            source.reply(ok: seq, json: &json)
            quitting = true
        case .insert, .delete, .move, .update, .replace, .insertSection, .deleteSection:
            do throws(DeckEditError) {
                try changeScenes { (scene: inout Scene) throws(DeckEditError) in try edit(command, in: &scene, tag: nil)
                }
                source.reply(ok: seq, json: &json)
            } catch {
                source.reply(error: "\(command.name): \(error.message)", seq: seq, json: &json)
            }
        case .batch:
            source.openBatch = OpenBatch(budget: batchBudget)
            source.reply(ok: seq, json: &json)
        case .appear(let stagger, let duration):
            let tag = tag(for: source, seq: seq)
            changeScenes { $0.appear(stagger: stagger ?? 0.08, duration: duration, tag: tag) }
            changeScenes { $0.markTag(tag) }
            tagEvents[tag] = "appear-finished"
            source.reply(ok: seq, json: &json)
        case .commit:
            source.reply(error: "commit: no batch is open (send batch first)", seq: seq, json: &json)
        case .play, .pause, .resume, .stop:
            applyPlayback(command, seq: seq, source)
        case .alert, .alertClear, .display: applySignage(command, seq: seq, source)
        }
    }

    /// Inside a batch: edits are checked for form and kept; `commit` applies them all or none.
    private func collect(_ command: Command, seq: Int, bytes: Int, _ source: CommandSource) {
        switch command {
        case .commit:
            let batch = source.openBatch!
            source.openBatch = nil
            if let problem = batch.problem {
                source.reply(error: "commit: the batch was not applied: \(problem)", seq: seq, json: &json)
                return
            }
            let tag = tag(for: source, seq: seq)
            do throws(SceneBatchError) {
                let edits = batch.edits.map { Self.sceneEdit($0.command) }
                try changeScenes { (scene: inout Scene) throws(SceneBatchError) in try scene.performAll(edits, tag: tag)
                }
            } catch {
                tagOwners[tag] = nil
                let (editSeq, edit) = batch.edits[error.failedEdit]
                source.reply(
                    error: "commit: the batch was not applied: line \(editSeq) (\(edit.name)): \(error.error.message)",
                    seq: seq, json: &json)
                return
            }
            tagEvents[tag] = "batch-finished"
            changeScenes { $0.markTag(tag) }
            source.reply(ok: seq, json: &json)
        case .quit:
            apply(command, seq: seq, source)
        default:
            guard command.isEdit else {
                let message =
                    "\(command.name) cannot stand inside a batch (only insert, delete, move, update, replace, insert-section and delete-section; end it with commit)"
                if source.openBatch?.problem == nil { source.openBatch?.problem = "line \(seq): \(message)" }
                source.reply(error: message, seq: seq, json: &json)
                return
            }
            if source.openBatch!.keep(command, seq: seq, bytes: bytes) {
                source.reply(ok: seq, json: &json)
            } else if source.openBatch!.discardedAt == seq {
                Log.error(
                    "\(source.name): a batch went over its cap (\(source.openBatch!.discardedCap)) at line \(seq); it was discarded"
                )
                source.reply(
                    error:
                        "\(command.name): the batch went over its cap (\(source.openBatch!.discardedCap)) and was discarded: nothing of it will be applied; edits up to its commit are answered with this error and not kept",
                    seq: seq, json: &json)
            } else {
                source.reply(
                    error:
                        "\(command.name): not kept: the batch was discarded at line \(source.openBatch!.discardedAt!) (over its cap of \(source.openBatch!.discardedCap)); send commit to end it",
                    seq: seq, json: &json)
            }
        }
    }

    /// Card edits (SPEC §5): applied at once, animated from the next frame; a failed edit changes
    /// nothing and is answered with why.
    private func edit(_ command: Command, in scene: inout Scene, tag: Int?) throws(DeckEditError) {
        try scene.perform(Self.sceneEdit(command), tag: tag)
    }

    /// The scene's form of an edit command (`command.isEdit`).
    static func sceneEdit(_ command: Command) -> SceneEdit {
        switch command {
        case .insert(let place, let card): return .insert(place, card)
        case .delete(let reference): return .delete(reference)
        case .move(let reference, let place): return .move(reference, to: place)
        case .update(let reference, let patch): return .update(reference, patch)
        case .replace(let reference, let card): return .replace(reference, card)
        case .insertSection(let index, let section): return .insertSection(index, section)
        case .deleteSection(let index): return .deleteSection(index)
        default: preconditionFailure("Session.sceneEdit: \(command.name) is not an edit")
        }
    }

    private func scroll(to target: ScrollTarget, _ options: ScrollOptions, seq: Int, _ source: CommandSource) {
        let duration = options.duration ?? ScrollOptions.defaultDuration
        let tag = tag(for: source, seq: seq)
        switch changeScenes({ $0.scroll(to: target, duration: duration, curve: options.curve ?? .default, tag: tag) }) {
        case .failure(let error):
            tagOwners[tag] = nil
            source.reply(error: "scroll: \(error.message)", seq: seq, json: &json)
        case .success(let replaced):
            source.reply(ok: seq, json: &json)
            if let replaced { emit(replaced) }
        }
    }

    /// Shows `deck` if its fonts can be opened; otherwise nothing changes.
    /// `restartsPlayback`: the deck's own `playback` starts even if the shown deck had the same
    /// (`load`); a reload starts it only when it changed.
    func replaceDeck(with deck: Deck, path: String, restartsPlayback: Bool = false) throws(RuntimeError) {
        // The renderer opens the --font file again for the new style; it must not have become a
        // FIFO or a device since the start.
        try Self.checkFontFile(options.fontPath)
        try Self.checkElementFonts(deck, fontPath: options.fontPath)
        do {
            try prepareRenderers(style: deck.style)
        } catch {
            throw RuntimeError(error.message)
        }
        // Image files may have been fixed or replaced along with the deck.
        images.reload()
        setImagePaths(imageResolver(deckPath: path))
        shownDeckPath = path
        imageDeckPath = path
        let previousPlayback = scene.deck.playback
        if let replaced = changeScenes({ $0.replaceDeck(deck) }) { emit(replaced) }
        followDeckPlayback(deck.playback, previous: previousPlayback, restart: restartsPlayback)
        startSchedule()
    }

    private func writeSnapshot(_ path: String, seq: Int, _ source: CommandSource) {
        // A snapshot replaces its file by a rename: over the deck, a picture it shows or a trace
        // (the first output's or a further one's, named by the connector it drives) it would
        // destroy it.
        if let conflict = OutputPaths.conflict(
            output: path, flag: "snapshot",
            inputs: [("the deck file shown", shownDeckPath)] + options.inputFiles
                + OutputPaths.namedTraceFiles(options.tracePath, furtherOutputs: furtherOutputs.map(\.name))
                + OutputPaths.pictures(of: scene.deck, deckPath: imageDeckPath))
        {
            source.reply(error: conflict, seq: seq, json: &json)
            return
        }
        if let refusal = OutputPaths.notReplaceable(output: path, flag: "snapshot") {
            source.reply(error: refusal, seq: seq, json: &json)
            return
        }
        renderForSnapshot()
        guard let frame = backend.presentedFrame() else {
            source.reply(error: "snapshot: no frame has been presented yet", seq: seq, json: &json)
            return
        }
        do {
            try PNGFile.write(frame, to: try paths.checkWrite(path))
            source.reply(ok: seq, json: &json)
        } catch let error as RenderError {
            source.reply(error: "snapshot: \(error.message)", seq: seq, json: &json)
        } catch {
            source.reply(error: "snapshot: \(error)", seq: seq, json: &json)
        }
    }
}
