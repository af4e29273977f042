/// How often frames may come, from the display's refresh rate and `--max-fps` (SPEC §1): the one
/// description the software, DRM and fbdev display links share.
public struct FramePacing: Equatable, Sendable {
    /// The rate frames are timed by, in Hz.
    public let refreshRate: Double
    /// Vblanks from one frame to the next: 1, or more when `--max-fps` is below the refresh rate.
    public let vblanksPerFrame: Int
    /// The shortest wall-clock time between two frames: 90 % of `1 / max-fps`, so that the usual
    /// jitter of event delivery never costs a vblank, while drivers whose events come faster than
    /// any real refresh are still held to the cap.
    public let minimumFrameInterval: Double

    public var refreshPeriod: Double { 1 / refreshRate }

    /// `maximumFramesPerSecond` defaults to the refresh rate. With `countsVblanks` false (a rate
    /// that cannot be trusted) every vblank may carry a frame and only the wall clock caps them.
    public init(refreshRate: Double, maximumFramesPerSecond: Double?, countsVblanks: Bool = true) {
        precondition(refreshRate > 0 && refreshRate.isFinite, "FramePacing: refresh rate must be positive")
        self.refreshRate = refreshRate
        let cap = maximumFramesPerSecond.map { $0 > 0 ? $0 : refreshRate } ?? refreshRate
        // Held to a million vblanks (hours between frames) so that no cap converts out of Int's range.
        vblanksPerFrame =
            countsVblanks && cap < refreshRate ? Int(min(refreshRate / cap - 1e-9, 1e6).rounded(.up)) : 1
        minimumFrameInterval = 0.9 / cap
    }

    /// A display's reported rate if a panel could have it (1 to 240 Hz), else nil: drivers for SPI
    /// and USB displays report nothing or nonsense, and frames are then timed at 60 Hz.
    public static func plausibleRate(_ reported: Double?) -> Double? {
        guard let reported, reported >= 1, reported <= 240 else { return nil }
        return reported
    }

    /// "60" or "59.94": a rate for logs and messages, to the hundredth.
    public static func hertz(_ rate: Double) -> String {
        let hundredths = (rate * 100).rounded() / 100
        return hundredths == hundredths.rounded() && hundredths.magnitude < 1e15
            ? String(Int(hundredths)) : String(hundredths)
    }
}
