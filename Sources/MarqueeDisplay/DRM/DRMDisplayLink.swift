import CDRM
import Glibc
import MarqueeCore

/// The display link of a DRM CRTC: frames are timed by page-flip events (and, after an idle
/// spell, by one vblank event), read with `drmHandleEvent` in the run loop's `poll()`. What it
/// decides from those events is `DRMLinkState`'s; this type reads the device and asks it for
/// vblank events.
///
/// Drivers whose events come faster than any real refresh (some SPI and USB displays complete a
/// flip at once) are held to `--max-fps` by the wall clock as well (`minimumFrameInterval`).
final class DRMDisplayLink: DisplayLink {
    let isVirtual = false
    private var state: DRMLinkState
    private let fd: Int32
    private var crtcIndex: Int
    private let monotonicTimestamps: Bool
    private let log: (String) -> Void
    let events: UnsafeMutablePointer<marquee_drm_events>

    init(
        fd: Int32, crtcIndex: Int, pacing: FramePacing, monotonicTimestamps: Bool, log: @escaping (String) -> Void
    ) {
        self.fd = fd
        self.crtcIndex = crtcIndex
        state = DRMLinkState(
            refreshPeriod: pacing.refreshPeriod, vblanksPerFrame: UInt32(pacing.vblanksPerFrame),
            minimumFrameInterval: pacing.minimumFrameInterval)
        self.monotonicTimestamps = monotonicTimestamps
        self.log = log
        events = .allocate(capacity: 1)
        events.initialize(to: marquee_drm_events())
    }

    deinit { events.deallocate() }

    var refreshPeriod: Double { state.refreshPeriod }
    var vblanksPerFrame: UInt32 { state.vblanksPerFrame }
    var isFramePending: Bool { state.isFramePending }
    var isFlipPending: Bool { state.isFlipPending }
    /// True while the output shows no frames (`display off`, no display connected).
    var isPaused: Bool { state.isPaused }

    var now: Double { MonotonicClock.now() }

    /// The device, while an event is expected (a flip or a vblank); nil when idle or paused, so
    /// that an idle Marquee sleeps in `poll()` with no timeout.
    var pollDescriptor: Int32? { state.expectsEvent ? fd : nil }

    func requestFrame() {
        ask(state.requestFrame(now: now))
    }

    func pollTimeoutMilliseconds() -> Int32 {
        // Another output's link read this link's event from the shared descriptor after this one
        // last looked (between their dispatches): the descriptor is not readable for it any more,
        // and `poll()` would sleep until some other event, for ever if none came. Take it now.
        if state.expectsEvent, hasArrivedEvents { return 0 }
        return state.pollTimeoutMilliseconds(now: now)
    }

    /// An event read into this link's block and not yet handed to the state.
    private var hasArrivedEvents: Bool { events.pointee.flip_completed != 0 || events.pointee.vblank_arrived != 0 }

    func dispatch() throws -> FrameTime? {
        if state.expectsEvent {
            if isReadable() { try readDevice() }
            // Another output's link on the same device may have read this link's event.
            takeArrivedEvents()
        }
        return state.takeDueFrame(now: now)
    }

    func advanceIdle(to time: Double) {}

    /// The backend queued a flip: the next frame waits for its event.
    func flipQueued() { state.flipQueued() }

    /// The backend committed nothing for the frame (nothing changed): it counts as flipped at its
    /// target vblank, whose event is asked for (`DRMLinkState.frameSkipped`).
    func frameSkipped() { ask(state.frameSkipped(now: now)) }

    /// Stops asking the device for events: the CRTC is about to go off (or its display went
    /// away). Waits for the flip in flight first, and reads the vblank events the kernel
    /// completes when the CRTC stops.
    func pause() {
        waitForFlip()
        state.pause()
    }

    /// The CRTC at `crtcIndex` shows frames again: a frame asked for meanwhile waits for its
    /// next vblank. `pacing`: the new mode's, when it changed.
    func resume(crtcIndex: Int, pacing: FramePacing? = nil) {
        self.crtcIndex = crtcIndex
        if let pacing {
            state.retime(
                refreshPeriod: pacing.refreshPeriod, vblanksPerFrame: UInt32(pacing.vblanksPerFrame),
                minimumFrameInterval: pacing.minimumFrameInterval)
        }
        ask(state.resume(now: now))
    }

    /// Reads events until the pending flip has completed (before restoring the CRTC, turning it
    /// off or reading the scan-out back), at most `timeout` seconds.
    func waitForFlip(timeout: Double = 1) {
        let deadline = now + timeout
        // Another output's link may have read the event already.
        takeArrivedEvents()
        while state.isFlipPending, now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) > 0 { try? readDevice() }
            takeArrivedEvents()
        }
        state.flipAbandoned()
    }

    /// Reads whatever events wait on the device without blocking (after a CRTC went off: the
    /// kernel completes its pending vblank events then), so that none is taken later for a vblank
    /// of the running output.
    func drainEvents() {
        while isReadable() { try? readDevice() }
        takeArrivedEvents()
    }

    private func isReadable() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    /// Reads the events waiting on the device. Each lands in the `events` of the link that asked
    /// for it (its address is the request's user data), which may be another output's link on the
    /// same device: every link takes its own with `takeArrivedEvents`.
    private func readDevice() throws(DisplayError) {
        if case .failure(let code) = SystemCall.run({ marquee_drm_handle_events(fd) }) {
            throw DisplayError(.systemCall, "reading DRM events failed: \(code)", errno: code)
        }
    }

    /// Hands this link's events that have arrived to the state, and marks them taken.
    private func takeArrivedEvents() {
        let value = events.pointee
        events.pointee.flip_completed = 0
        events.pointee.vblank_arrived = 0
        if value.flip_completed != 0 {
            ask(
                state.flipCompleted(
                    sequence: value.flip_sequence, time: time(value.flip_seconds, value.flip_microseconds), now: now))
        }
        if value.vblank_arrived != 0 {
            ask(
                state.vblankArrived(
                    sequence: value.vblank_sequence, time: time(value.vblank_seconds, value.vblank_microseconds),
                    now: now))
        }
    }

    private func time(_ seconds: UInt32, _ microseconds: UInt32) -> Double {
        // Without DRM_CAP_TIMESTAMP_MONOTONIC the kernel stamps events with the wall clock, which
        // jumps; the time the event is read is then the better estimate.
        monotonicTimestamps ? Double(seconds) + Double(microseconds) / 1e6 : now
    }

    /// Asks the device for the vblank event the state wants, if any.
    private func ask(_ request: DRMLinkState.VblankRequest?) {
        guard let request else { return }
        let result = SystemCall.run {
            switch request {
            case .next: marquee_drm_request_vblank_event(fd, Int32(crtcIndex), 1, 1, events)
            case .sequence(let number): marquee_drm_request_vblank_event(fd, Int32(crtcIndex), number, 0, events)
            }
        }
        switch result {
        case .success: state.vblankRequested()
        case .failure(let code):
            state.vblankRequestFailed(now: now)
            log("the driver gives no vblank events (\(code)); frames after an idle spell are timed from the clock")
        }
    }
}
