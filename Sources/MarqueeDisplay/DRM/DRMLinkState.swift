import MarqueeCore

/// The decisions of the DRM display link, apart from the device: which vblank to ask for, when a
/// frame is due and with which times, and what a paused output (`display off`, a disconnected
/// connector) does to all that. `DRMDisplayLink` feeds it the events it reads and carries out the
/// requests it returns; the tests feed it plain values.
///
/// - While animating, the flip event of frame N (its vblank time `t`) makes frame N+1 due at once
///   with `timestamp = t` and `targetTimestamp = t + refreshPeriod`.
/// - After idling, a frame waits for the next vblank event, so it too has a whole period to be
///   drawn and is shown at its target.
/// - A frame taken more than a period after its vblank (the loop was drawing another output's
///   frame) is timed from the last vblank before now, on the same grid; one that the `--max-fps`
///   wall-clock floor alone held back past the next vblank is timed from now (its event was no
///   real vblank).
/// - `vblanksPerFrame > 1` (`--max-fps` below the refresh rate) waits for the vblank
///   `vblanksPerFrame - 1` after the last flip.
/// - Paused, nothing is asked of the device (a CRTC that is off gives no vblanks, and asking for
///   one fails) and no frame is due; a frame asked for meanwhile waits for the resume. Events
///   stamped before the resume (the kernel completes pending vblank events when a CRTC goes off)
///   are not vblanks of the running output and are dropped.
/// - A frame that changed nothing is not committed (`frameSkipped`): it counts as flipped at the
///   vblank its flip would have completed at, the next one, whose event stands in for the flip's.
struct DRMLinkState {
    /// A vblank event to ask the kernel for.
    enum VblankRequest: Equatable {
        /// The next vblank from now.
        case next
        /// Vblank number `sequence`, or the next one if it has passed.
        case sequence(UInt32)
    }

    private(set) var refreshPeriod: Double
    private(set) var vblanksPerFrame: UInt32
    /// `FramePacing.minimumFrameInterval`: the wall-clock floor between frame starts.
    private(set) var minimumFrameInterval: Double

    private(set) var isFramePending = false
    private(set) var isFlipPending = false
    private(set) var isVblankRequested = false
    /// The awaited "flip" is a skipped frame's: the next vblank event stands in for its event.
    private(set) var isSkippedFlipPending = false
    private(set) var isPaused = false
    /// False once the driver refused a vblank event: frames after an idle spell are then timed
    /// from the clock.
    private(set) var vblankEventsWork = true
    private(set) var dueFrame: FrameTime?
    private var lastFlip: (sequence: UInt32, time: Double)?
    private var lastFrameStart = -Double.infinity
    /// Events stamped before this time belong to the output before it was paused.
    private var resumedAt = -Double.infinity

    init(refreshPeriod: Double, vblanksPerFrame: UInt32, minimumFrameInterval: Double) {
        self.refreshPeriod = refreshPeriod
        self.vblanksPerFrame = vblanksPerFrame
        self.minimumFrameInterval = minimumFrameInterval
    }

    /// True while an event from the device is expected (a flip or a vblank).
    var expectsEvent: Bool { isFlipPending || isVblankRequested }

    /// A frame is wanted. Returns the vblank to ask for, if one must be asked for now.
    mutating func requestFrame(now: Double) -> VblankRequest? {
        guard !isFramePending else { return nil }
        isFramePending = true
        guard !isPaused, !isFlipPending, !isVblankRequested else { return nil }
        return vblankToWaitFor(now: now)
    }

    /// The backend queued a flip: the next frame waits for its event.
    mutating func flipQueued() { isFlipPending = true }

    /// The flip's event: its vblank's number and time. Returns the vblank to ask for, if any.
    mutating func flipCompleted(sequence: UInt32, time: Double, now: Double) -> VblankRequest? {
        isFlipPending = false
        // As for vblanks (below): a late interrupt may stamp the first flip after a resume with a
        // slot just before it; dropping it would leave a waiting frame with nothing to wake it.
        guard time > resumedAt - refreshPeriod else { return nil }
        lastFlip = (sequence, time)
        guard isFramePending, dueFrame == nil, !isPaused else { return nil }
        if vblanksPerFrame == 1 {
            dueFrame = FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
            return nil
        }
        return vblankToWaitFor(now: now)
    }

    /// The backend committed nothing for the frame it took (nothing changed since the frame on
    /// screen). The frame counts as flipped at the vblank its flip would have completed at: the
    /// next one, which is its target (the vblank it was timed from plus one) unless it was drawn
    /// too late for it, as its flip would then have been. That vblank's event is asked for and
    /// taken as the flip's (`vblankArrived(sequence:time:now:)`), so `--max-fps` counts from it and
    /// the next frame is timed by it exactly as after a flip. Without vblank events the flip counts
    /// as completed at once, as flips do on the drivers that give none. Returns the vblank to ask for.
    mutating func frameSkipped(now: Double) -> VblankRequest? {
        guard vblankEventsWork else {
            return flipCompleted(sequence: lastFlip.map { $0.sequence &+ 1 } ?? 0, time: now, now: now)
        }
        isFlipPending = true
        isSkippedFlipPending = true
        return isVblankRequested ? nil : .next
    }

    /// A vblank event with its number, as the device gives it: the one a skipped frame waits for
    /// completes that frame's flip (`flipCompleted`); any other is `vblankArrived(time:)`.
    /// Returns the vblank to ask for, if any.
    mutating func vblankArrived(sequence: UInt32, time: Double, now: Double) -> VblankRequest? {
        guard isSkippedFlipPending else {
            vblankArrived(time: time)
            return nil
        }
        guard time > resumedAt - refreshPeriod else { return nil }
        isVblankRequested = false
        isSkippedFlipPending = false
        return flipCompleted(sequence: sequence, time: time, now: now)
    }

    /// A vblank event asked for by `requestFrame` or `flipCompleted`.
    mutating func vblankArrived(time: Double) {
        // The vblank that answers a request made after the resume carries the time its slot was
        // due, and a late timer interrupt (a loaded board, a guest under emulation) can put that
        // slot up to a period before `resumedAt`: dropping it left the frame waiting for an
        // event that never came, and the output frozen. Events left from before the pause are
        // older than that: the modeset that turned the output on waited for a vblank first.
        guard time > resumedAt - refreshPeriod else { return }
        isVblankRequested = false
        guard isFramePending, dueFrame == nil, !isFlipPending, !isPaused else { return }
        dueFrame = FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
    }

    /// The device took the request `vblankToWaitFor` returned.
    mutating func vblankRequested() { isVblankRequested = true }

    /// The device refused the request: from now on frames after an idle spell are timed from the
    /// clock (some drivers give no vblank events).
    mutating func vblankRequestFailed(now: Double) {
        vblankEventsWork = false
        if isSkippedFlipPending {
            // The skipped frame's flip counts as completed now (`frameSkipped`).
            isSkippedFlipPending = false
            isFlipPending = false
        }
        if isFramePending, dueFrame == nil, !isPaused { dueFrame = clockFrame(now) }
    }

    /// Milliseconds the loop may sleep before the due frame may start (-1: no frame is due).
    func pollTimeoutMilliseconds(now: Double) -> Int32 {
        guard isFramePending, dueFrame != nil else { return -1 }
        let wait = lastFrameStart + minimumFrameInterval - now
        return wait <= 0 ? 0 : Int32((wait * 1000).rounded(.up))
    }

    /// The frame to draw now, if one is due and the rate cap lets it start.
    mutating func takeDueFrame(now: Double) -> FrameTime? {
        guard isFramePending, let due = dueFrame, !isPaused else { return nil }
        guard now >= lastFrameStart + minimumFrameInterval else { return nil }
        let frame: FrameTime
        if due.timestamp < lastFrameStart {
            // Its event is stamped before the last frame began (after a late frame timed from the
            // clock, a late vblank interrupt stamps the flip with the slot it was due at): its
            // target would come before the last frame's, and animations would run backwards.
            frame = clockFrame(now)
        } else if now - due.timestamp <= refreshPeriod {
            frame = due
        } else if lastFrameStart + minimumFrameInterval > due.timestamp + refreshPeriod {
            // The rate cap alone held it back past the next vblank: its flip event was no real
            // vblank (a driver that completes flips at once); timed from now.
            frame = clockFrame(now)
        } else {
            // Taken late (the loop drew another output's frame meanwhile, or a command took
            // long): the vblanks went on, so the frame is timed from the last one before now.
            let timestamp = due.timestamp + ((now - due.timestamp) / refreshPeriod).rounded(.down) * refreshPeriod
            frame = FrameTime(timestamp: timestamp, targetTimestamp: timestamp + refreshPeriod)
        }
        dueFrame = nil
        isFramePending = false
        lastFrameStart = now
        return frame
    }

    /// The output stopped showing frames (its CRTC went off, its display went away). The caller
    /// has waited for the pending flip. A frame already asked for stays asked for, to be drawn
    /// after the resume.
    mutating func pause() {
        isPaused = true
        isFlipPending = false
        isSkippedFlipPending = false
        isVblankRequested = false
        dueFrame = nil
        // The vblank counter and grid of the output that comes back need not go on from these.
        lastFlip = nil
    }

    /// The output shows frames again from `now`. Returns the vblank to ask for when a frame waits.
    mutating func resume(now: Double) -> VblankRequest? {
        guard isPaused else { return nil }
        isPaused = false
        resumedAt = now
        guard isFramePending else { return nil }
        return vblankToWaitFor(now: now)
    }

    /// Another mode (a display plugged in with another refresh rate), while paused.
    mutating func retime(refreshPeriod: Double, vblanksPerFrame: UInt32, minimumFrameInterval: Double) {
        precondition(isPaused, "DRMLinkState.retime: the output must be paused while its mode changes")
        self.refreshPeriod = refreshPeriod
        self.vblanksPerFrame = vblanksPerFrame
        self.minimumFrameInterval = minimumFrameInterval
    }

    /// Forgets a flip that will not complete (the caller waited for it long enough).
    mutating func flipAbandoned() {
        isFlipPending = false
        isSkippedFlipPending = false
    }

    /// The vblank after which the next frame is drawn: the one `vblanksPerFrame - 1` after the
    /// last flip, or the next one; nil (with the frame due from the clock) without vblank events.
    private mutating func vblankToWaitFor(now: Double) -> VblankRequest? {
        guard vblankEventsWork else {
            dueFrame = clockFrame(now)
            return nil
        }
        if let last = lastFlip { return .sequence(last.sequence &+ vblanksPerFrame &- 1) }
        return .next
    }

    private func clockFrame(_ now: Double) -> FrameTime {
        FrameTime(timestamp: now, targetTimestamp: now + refreshPeriod)
    }
}
