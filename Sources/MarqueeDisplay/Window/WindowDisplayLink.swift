import MarqueeCore

/// The preview window's display link: frames are timed by the window system's presents.
///
/// A frame's timestamp is when the last `SDL_RenderPresent` returned (or now, after an idle
/// spell) and its target is one refresh period later: with vsync the present blocks until the
/// vblank, so the next frame is rendered at once and shown at the next one. Where the present
/// does not block (a renderer without vsync, Xvfb), frames are paced by the monotonic clock
/// at one per period instead, so an animation never spins the CPU.
///
/// SDL's events arrive on a connection SDL reads itself, not on a descriptor this link can
/// hand the loop; while no frame is pending the link asks to be woken every
/// `idleWakeMilliseconds` so the window's keys and close button are seen (docs/architecture.md).
final class WindowDisplayLink: DisplayLink {
    /// How often an idle window looks at its events: 10 wake-ups a second, a tenth of a second of
    /// key latency at worst.
    static let idleWakeMilliseconds: Int32 = 100
    let refreshPeriod: Double
    let isVirtual = false
    private let origin = MonotonicClock.now()
    private(set) var isFramePending = false
    /// When the last present returned, on this link's clock.
    private var lastPresent = -Double.infinity
    /// True while presents are seen to block (vsync works); judged from the presents themselves,
    /// since a renderer may report vsync that the window system does not give (Xvfb).
    private var presentsBlock: Bool
    private var quickPresents = 0

    init(refreshRate: Double, vsyncReported: Bool) {
        refreshPeriod = 1 / refreshRate
        presentsBlock = vsyncReported
    }

    var now: Double { MonotonicClock.now() - origin }

    var pollDescriptor: Int32? { nil }

    func requestFrame() { isFramePending = true }

    func pollTimeoutMilliseconds() -> Int32 {
        guard isFramePending else { return Self.idleWakeMilliseconds }
        if presentsBlock { return 0 }
        let wait = lastPresent + refreshPeriod - now
        return wait <= 0 ? 0 : Int32((wait * 1000).rounded(.up))
    }

    func dispatch() -> FrameTime? {
        guard isFramePending else { return nil }
        let time = now
        if !presentsBlock, time < lastPresent + refreshPeriod - 0.0005 { return nil }
        isFramePending = false
        // After an idle spell the last present is long past: the frame is timed from now.
        let timestamp = time - lastPresent < 2 * refreshPeriod ? lastPresent : time
        return FrameTime(timestamp: timestamp, targetTimestamp: timestamp + refreshPeriod)
    }

    /// Called by the backend around `SDL_RenderPresent`.
    func presented(startedAt start: Double, endedAt end: Double) {
        lastPresent = end
        guard presentsBlock else { return }
        // Eight presents in a row that returned at once: vsync is not really there.
        if end - start < 0.1 * refreshPeriod {
            quickPresents += 1
            if quickPresents >= 8 { presentsBlock = false }
        } else {
            quickPresents = 0
        }
    }

    func advanceIdle(to time: Double) {}
}
