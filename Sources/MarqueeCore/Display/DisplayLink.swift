/// The two times a frame callback carries (SPEC §1), in seconds on CLOCK_MONOTONIC (or on the
/// software backend's virtual clock).
public struct FrameTime: Equatable, Sendable {
    /// When the last frame was shown: the vblank of the last completed flip.
    public var timestamp: Double
    /// When the frame being drawn now will be shown. Animation state is evaluated here.
    public var targetTimestamp: Double

    public init(timestamp: Double, targetTimestamp: Double) {
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
    }
}

/// A source of frame callbacks timed by vblank, in the manner of CADisplayLink, shaped for a
/// single-threaded `poll()` loop: the loop asks for a frame, polls the link's descriptor (if any)
/// with the link's timeout, then lets the link say whether the frame is due.
///
/// Implementations: the software backend's virtual or wall-clock link (MarqueeDisplay/Software),
/// and the DRM page-flip link (issue 4). The core only sees this protocol: it never reads a clock.
public protocol DisplayLink: AnyObject {
    /// Seconds between vblanks (exact, from the mode timings where there are any).
    var refreshPeriod: Double { get }
    /// The link's current time, on the same clock as its frame times.
    var now: Double { get }
    /// True for a clock that moves only when frames are drawn or `advanceIdle(to:)` is called.
    var isVirtual: Bool { get }
    /// Asks for one frame callback at the next vblank the link may use.
    func requestFrame()
    /// True between `requestFrame()` and the callback that serves it.
    var isFramePending: Bool { get }
    /// A descriptor to poll for readability while a frame is pending, or nil.
    var pollDescriptor: Int32? { get }
    /// How long the loop may sleep in `poll()` before the link needs attention, in milliseconds:
    /// -1 for no limit (nothing pending), 0 when a callback is due now.
    func pollTimeoutMilliseconds() -> Int32
    /// Handles what `poll()` reported (or the timeout) and returns the frame time if the pending
    /// callback is due now.
    func dispatch() throws -> FrameTime?
    /// On a virtual clock, lets idle time pass up to `time` (a `wait` with nothing animating).
    func advanceIdle(to time: Double)
}
