import CDRM
import Glibc
import MarqueeCore

/// The display link of a DRM CRTC: frames are timed by page-flip events (and, after an idle
/// spell, by one vblank event), read with `drmHandleEvent` in the run loop's `poll()`.
///
/// - While animating, the flip event of frame N (its vblank time `t`) makes frame N+1 due at once
///   with `timestamp = t` and `targetTimestamp = t + refreshPeriod`: that frame's flip is queued
///   well before the next vblank, so it is shown exactly at its target.
/// - After idling, a frame waits for the next vblank event, so it too has a whole period to be
///   drawn and is shown at its target (as CADisplayLink's first callback after a pause).
/// - `--max-fps` below the refresh rate skips vblanks: the next frame waits for the vblank event
///   `vblanksPerFrame - 1` after the last flip.
/// - Drivers whose events come faster than any real refresh (some SPI and USB displays complete a
///   flip at once) are held to `--max-fps` by the wall clock as well.
final class DRMDisplayLink: DisplayLink {
    let refreshPeriod: Double
    let isVirtual = false
    let vblanksPerFrame: UInt32
    /// `FramePacing.minimumFrameInterval`.
    let minimumFrameInterval: Double
    private let fd: Int32
    private let crtcIndex: Int
    private let monotonicTimestamps: Bool
    private let log: (String) -> Void
    let events: UnsafeMutablePointer<marquee_drm_events>

    private(set) var isFramePending = false
    private(set) var isFlipPending = false
    private var isVblankRequested = false
    private var lastFlip: (sequence: UInt32, time: Double)?
    private var dueFrame: FrameTime?
    private var lastFrameStart = -Double.infinity
    private var vblankEventsWork = true

    init(
        fd: Int32, crtcIndex: Int, pacing: FramePacing, monotonicTimestamps: Bool, log: @escaping (String) -> Void
    ) {
        self.fd = fd
        self.crtcIndex = crtcIndex
        refreshPeriod = pacing.refreshPeriod
        vblanksPerFrame = UInt32(pacing.vblanksPerFrame)
        minimumFrameInterval = pacing.minimumFrameInterval
        self.monotonicTimestamps = monotonicTimestamps
        self.log = log
        events = .allocate(capacity: 1)
        events.initialize(to: marquee_drm_events())
    }

    deinit { events.deallocate() }

    var now: Double { MonotonicClock.now() }

    /// The device, while an event is expected (a flip or a vblank); nil when idle, so that an idle
    /// Marquee sleeps in `poll()` with no timeout.
    var pollDescriptor: Int32? { isFlipPending || isVblankRequested ? fd : nil }

    func requestFrame() {
        guard !isFramePending else { return }
        isFramePending = true
        if !isFlipPending && !isVblankRequested { waitForVblank() }
    }

    func pollTimeoutMilliseconds() -> Int32 {
        guard isFramePending, dueFrame != nil else { return -1 }
        let wait = lastFrameStart + minimumFrameInterval - now
        return wait <= 0 ? 0 : Int32((wait * 1000).rounded(.up))
    }

    func dispatch() throws -> FrameTime? {
        if pollDescriptor != nil, isReadable() { try readEvents() }
        guard isFramePending, let due = dueFrame else { return nil }
        let start = now
        guard start >= lastFrameStart + minimumFrameInterval else { return nil }
        // A frame held back by the rate cap is timed from now: its flip event was not a real vblank.
        let frame =
            start - due.timestamp > refreshPeriod
            ? FrameTime(timestamp: start, targetTimestamp: start + refreshPeriod) : due
        dueFrame = nil
        isFramePending = false
        lastFrameStart = start
        return frame
    }

    func advanceIdle(to time: Double) {}

    /// The backend queued a flip: the next frame waits for its event.
    func flipQueued() { isFlipPending = true }

    /// Reads events until the pending flip has completed (before restoring the CRTC or reading the
    /// scan-out back), at most `timeout` seconds.
    func waitForFlip(timeout: Double = 1) {
        let deadline = now + timeout
        while isFlipPending, now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 100) > 0 { try? readEvents() }
        }
        isFlipPending = false
    }

    private func isReadable() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLIN) != 0
    }

    private func readEvents() throws(DisplayError) {
        events.pointee.flip_completed = 0
        events.pointee.vblank_arrived = 0
        if marquee_drm_handle_events(fd) != 0 {
            throw DisplayError(
                .systemCall, "reading DRM events failed: \(String(cString: strerror(errno)))", errno: errno)
        }
        if events.pointee.flip_completed != 0 {
            let value = events.pointee
            flipCompleted(sequence: value.flip_sequence, time: time(value.flip_seconds, value.flip_microseconds))
        }
        if events.pointee.vblank_arrived != 0 {
            let value = events.pointee
            vblankArrived(time: time(value.vblank_seconds, value.vblank_microseconds))
        }
    }

    private func time(_ seconds: UInt32, _ microseconds: UInt32) -> Double {
        // Without DRM_CAP_TIMESTAMP_MONOTONIC the kernel stamps events with the wall clock, which
        // jumps; the time the event is read is then the better estimate.
        monotonicTimestamps ? Double(seconds) + Double(microseconds) / 1e6 : now
    }

    private func flipCompleted(sequence: UInt32, time: Double) {
        isFlipPending = false
        lastFlip = (sequence, time)
        guard isFramePending, dueFrame == nil else { return }
        if vblanksPerFrame == 1 {
            dueFrame = FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
        } else {
            waitForVblank()
        }
    }

    private func vblankArrived(time: Double) {
        isVblankRequested = false
        guard isFramePending, dueFrame == nil, !isFlipPending else { return }
        dueFrame = FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
    }

    /// Asks for the vblank after which the next frame is drawn: the one `vblanksPerFrame - 1`
    /// after the last flip, or the next one if that has passed.
    private func waitForVblank() {
        if vblankEventsWork {
            let result: Int32
            if let last = lastFlip {
                result = marquee_drm_request_vblank_event(
                    fd, Int32(crtcIndex), last.sequence &+ vblanksPerFrame &- 1, 0, events)
            } else {
                result = marquee_drm_request_vblank_event(fd, Int32(crtcIndex), 1, 1, events)
            }
            if result == 0 {
                isVblankRequested = true
                return
            }
            vblankEventsWork = false
            log(
                "the driver gives no vblank events (\(String(cString: strerror(errno)))); frames after an idle spell are timed from the clock"
            )
        }
        let start = now
        dueFrame = FrameTime(timestamp: start, targetTimestamp: start + refreshPeriod)
    }
}
