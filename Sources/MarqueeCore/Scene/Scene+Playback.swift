/// Signage playback (docs/protocol.md, "Playback"): pages, N cards at a time, or a ticker, run by
/// the scene's own frames. Time is passed in: a command gives the link's `now`, a frame its target
/// time, so a run on the virtual clock is the same every time.
///
/// Pages and cards rest (`dwelling`) for `dwell` seconds with no frame drawn (the session sleeps
/// until `nextPlaybackChange`), then move (`moving`) with the scroll animator, the move starting
/// exactly at the dwell's end; the move's last frame starts the next dwell. The next page is
/// computed when its move starts, from the deck as it is then, so edits and `apply` during
/// playback are simply taken along. The ticker sets the offset of every frame from the frame's
/// target time (`Playback.Phase.ticking`).
extension Scene {
    /// The link time at which playback needs a frame though nothing moves: the end of a dwell.
    public var nextPlaybackChange: Double? { playback?.dwellEnd }

    /// True while the ticker moves (it needs every frame).
    public var isTickerRunning: Bool {
        guard let playback, playback.isTicker, !playback.isPaused else { return false }
        return loopPeriod != nil
    }

    /// Whether the next frame is needed for something besides a running ticker: `wait idle` and
    /// the end of input wait for that, not for a ticker that never ends.
    public var needsFrameBesidesTicker: Bool {
        isDirty || animator.isAnimating || !tweens.isEmpty || !leaving.isEmpty || !pendingTags.isEmpty
            || alertIsFading
    }

    /// Starts playing `settings` (options left out come from the deck's own `playback`, then the
    /// defaults), replacing what played before. A page move or scroll under way ends first and
    /// the first dwell starts then; otherwise it starts at `now`. The ticker starts from the offset
    /// shown, at the next frame. Returns the event of a scroll the ticker stopped.
    public mutating func play(_ settings: PlaybackSettings, now: Double) -> ScrollFinished? {
        let filled = settings.filled(from: deck.playback)
        if let running = playback, running.settings.loops, !filled.loops { leaveLoop() }
        if filled.isTicker {
            let replaced = animator.jump(to: animator.presentedOffset)
            playback = Playback(settings: filled, phase: .ticking(anchor: nil))
            return replaced
        }
        let phase: Playback.Phase =
            animator.isAnimating ? .moving : .dwelling(until: now + (filled.dwell ?? PlaybackSettings.defaultDwell))
        playback = Playback(settings: filled, phase: phase)
        return nil
    }

    /// `pause`: a resting page stays (the rest of its dwell is kept for `resume`), a page move
    /// under way ends on its page and stays there, the ticker stops where it is.
    public mutating func pausePlayback(now: Double) throws(PlaybackError) {
        guard var running = playback else { throw PlaybackError("nothing is playing (start it with play)") }
        guard !running.isPaused else { throw PlaybackError("playback is already paused (resume it with resume)") }
        running.isPaused = true
        switch running.phase {
        case .dwelling(let until): running.phase = .held(remaining: max(0, until - now))
        case .ticking: running.phase = .ticking(anchor: nil)
        case .moving, .held: break
        }
        playback = running
    }

    /// `resume`: a page rests for what was left of its dwell (a whole dwell if it was paused
    /// while moving); the ticker goes on from where it stopped, from the next frame.
    public mutating func resumePlayback(now: Double) throws(PlaybackError) {
        guard var running = playback else { throw PlaybackError("nothing is playing (start it with play)") }
        guard running.isPaused else { throw PlaybackError("playback is not paused") }
        running.isPaused = false
        if case .held(let remaining) = running.phase { running.phase = .dwelling(until: now + remaining) }
        playback = running
    }

    /// `stop` (and any scroll command): playback ends; a page move under way still reaches its
    /// page. A last page resting past the deck's end (room below its last card) comes back to the
    /// end over the transition, as after an edit that shrinks the content: without playback the
    /// offset stays within the content. Returns false when nothing was playing.
    @discardableResult
    public mutating func stopPlayback() -> Bool {
        guard let running = playback else { return false }
        if running.settings.loops { leaveLoop() }
        playback = nil
        settleOffset()
        return true
    }

    /// Sets the shown deck's own `playback` (kept with the deck, for the options `play` leaves
    /// out), without touching what plays: the session decides that (docs/protocol.md).
    public mutating func setDeckPlayback(_ settings: PlaybackSettings?) {
        if deck.playback != settings { deck.playback = settings }
    }

    /// Before the copies of a looping deck stop being drawn: the offset brought back into the
    /// deck itself. Inside the seam (the last cards and the first copy's next ones both on screen)
    /// that is a jump to the deck's end or its start, whichever is nearer.
    private mutating func leaveLoop() {
        guard let period = loopPeriod else { return }
        let maximum = layout.maxOffset
        var offset = reducedLoopOffset(animator.presentedOffset, period: period)
        if offset > maximum + 0.5 { offset = offset - maximum < loopStart + period - offset ? maximum : 0 }
        if offset != animator.presentedOffset || animator.isAnimating {
            animator.jump(to: offset)
            isDirty = true
        }
    }

    /// The frame's scroll: playback's part (a page move starting at its dwell's end, the ticker's
    /// offset), then the animator's. Returns the event of a tagged scroll this frame finished.
    mutating func advanceScroll(to target: Double) -> ScrollFinished? {
        guard var running = playback else { return animator.advance(to: target, within: 0...layout.maxOffset) }
        let settings = running.settings
        switch running.phase {
        case .dwelling(let until) where !running.isPaused && target >= until - 1e-6:
            running.phase = startPageMove(at: min(until, target), settings)
        case .ticking(let anchor) where !running.isPaused:
            running.phase = .ticking(anchor: tick(at: target, anchor: anchor, speed: settings.speed ?? 0))
        default: break
        }
        // Page moves may end past the deck's end (a last page with room below its cards), and a
        // loop's offset runs past it by design; a plain scroll stays within the content. Nothing
        // goes above the top: a scroll with an overshooting curve that was under way when a loop
        // started swung to -794 px (found by the fuzzer).
        let finished = animator.advance(
            to: target, within: settings.loops ? 0...Double.infinity : 0...max(layout.maxOffset, 0))
        // A loop's resting offset is brought back by whole periods (the same picture): after a
        // move, and after an edit that shortened the deck while a page rested (the fuzzer found
        // an offset left past a shrunken period until the next move).
        if let period = loopPeriod, !animator.isAnimating {
            let reduced = reducedLoopOffset(animator.presentedOffset, period: period)
            if reduced != animator.presentedOffset { animator.jump(to: reduced) }
        }
        if case .moving = running.phase, !animator.isAnimating {
            let dwell = settings.dwell ?? PlaybackSettings.defaultDwell
            running.phase = running.isPaused ? .held(remaining: dwell) : .dwelling(until: target + dwell)
        }
        playback = running
        return finished
    }

    /// The ticker's offset for the frame shown at `target`; returns the anchor to keep.
    private mutating func tick(at target: Double, anchor: Playback.TickerAnchor?, speed: Double)
        -> Playback.TickerAnchor?
    {
        guard let period = loopPeriod else { return nil }
        var anchor = anchor ?? Playback.TickerAnchor(time: target, offset: animator.presentedOffset, period: period)
        if anchor.period != period {
            // The deck changed length under the ticker: it goes on from where the last frame was.
            anchor = Playback.TickerAnchor(
                time: min(lastTargetTime ?? target, target), offset: animator.presentedOffset, period: period)
        }
        let offset = reducedLoopOffset(anchor.offset + speed * (target - anchor.time), period: period)
        animator.jump(to: offset)
        return anchor
    }

    /// Starts the move to the next page at `start` (the dwell's end), or, when there is nowhere
    /// to go (a deck that fits the screen, no cards), rests another dwell.
    private mutating func startPageMove(at start: Double, _ settings: PlaybackSettings) -> Playback.Phase {
        let dwell = settings.dwell ?? PlaybackSettings.defaultDwell
        let current = animator.destination
        guard let next = nextPageOffset(from: current, settings), abs(next - current) > 0.5 else {
            // Nothing to page now; look again a dwell later (at least a second: a dwell of 0 must
            // not ask for a frame on every vblank while there is nothing to move).
            return .dwelling(until: start + max(dwell, 1))
        }
        animator.scroll(
            to: next, duration: settings.duration ?? PlaybackSettings.defaultDuration,
            curve: settings.curve ?? .default,
            tag: nil, startTime: start)
        return .moving
    }
}
