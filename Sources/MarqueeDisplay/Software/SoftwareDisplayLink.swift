import MarqueeCore

/// The software backend's display link: vblanks every `1 / refresh` seconds from time 0.
///
/// Virtual (the default): time moves only when a frame is drawn (to that frame's vblank) or when
/// `advanceIdle(to:)` lets a `wait` pass, so scripted runs give the same frames on any machine,
/// however loaded. Real time (`--realtime`): vblanks follow CLOCK_MONOTONIC from the start, and
/// the run loop sleeps in `poll()` until the next one.
public final class SoftwareDisplayLink: DisplayLink {
    public let refreshPeriod: Double
    public let isVirtual: Bool
    /// Vblanks between frames, from `--max-fps` (1 when the cap is at or above the refresh rate).
    public let vblanksPerFrame: Int64
    private let origin: Double
    private var virtualNow = 0.0
    private var lastVblank: Int64 = -1
    /// The vblank the pending frame will use, fixed when it is requested: recomputing it later
    /// from a `now` that has just passed it would chase the following vblank forever.
    private var pendingVblank: Int64?

    public var isFramePending: Bool { pendingVblank != nil }

    public init(refreshRate: Double, realtime: Bool, maximumFramesPerSecond: Double? = nil) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "SoftwareDisplayLink: refresh rate must be positive")
        let pacing = FramePacing(refreshRate: refreshRate, maximumFramesPerSecond: maximumFramesPerSecond)
        refreshPeriod = pacing.refreshPeriod
        isVirtual = !realtime
        origin = realtime ? MonotonicClock.now() : 0
        vblanksPerFrame = Int64(pacing.vblanksPerFrame)
    }

    public var now: Double { isVirtual ? virtualNow : MonotonicClock.now() - origin }

    public var pollDescriptor: Int32? { nil }

    public func requestFrame() {
        if pendingVblank == nil { pendingVblank = nextVblank() }
    }

    /// The first vblank the pending frame may use: not before now, and at least
    /// `vblanksPerFrame` after the last frame's.
    private func nextVblank() -> Int64 {
        let notBeforeNow = Int64((now / refreshPeriod - 1e-9).rounded(.up))
        return max(lastVblank < 0 ? 0 : lastVblank + vblanksPerFrame, notBeforeNow)
    }

    public func pollTimeoutMilliseconds() -> Int32 {
        guard let vblank = pendingVblank else { return -1 }
        if isVirtual { return 0 }
        let wait = Double(vblank) * refreshPeriod - now
        return wait <= 0 ? 0 : Int32(min((wait * 1000).rounded(.up), 60_000))
    }

    public func dispatch() -> FrameTime? {
        guard let vblank = pendingVblank else { return nil }
        let time = Double(vblank) * refreshPeriod
        if !isVirtual, now < time { return nil }
        if isVirtual { virtualNow = max(virtualNow, time) }
        lastVblank = vblank
        pendingVblank = nil
        return FrameTime(timestamp: time, targetTimestamp: time + refreshPeriod)
    }

    public func advanceIdle(to time: Double) {
        if isVirtual { virtualNow = max(virtualNow, time) }
    }
}
