/// What a drawn card or header looks like at one moment (SPEC §5). `frame` is in content
/// coordinates (the scroll offset is applied when drawing), so a transition and a scroll can run
/// at once without disturbing each other.
public struct ItemAttributes: Equatable, Sendable {
    public var frame: Rect
    public var alpha: Double = 1
    public var scale: Double = 1
    /// Radians, clockwise, about the frame's center.
    public var rotation: Double = 0
    /// Higher draws later (on top).
    public var zIndex: Int = 0

    public init(frame: Rect, alpha: Double = 1, scale: Double = 1, rotation: Double = 0, zIndex: Int = 0) {
        self.frame = frame
        self.alpha = alpha
        self.scale = scale
        self.rotation = rotation
        self.zIndex = zIndex
    }

    /// Component by component; `progress` is the curve's output (it may overshoot 0...1).
    public static func interpolate(from: ItemAttributes, to: ItemAttributes, progress p: Double) -> ItemAttributes {
        func mix(_ a: Double, _ b: Double) -> Double { (b - a) * p + a }
        return ItemAttributes(
            frame: Rect(
                x: mix(from.frame.x, to.frame.x), y: mix(from.frame.y, to.frame.y),
                width: mix(from.frame.width, to.frame.width),
                height: mix(from.frame.height, to.frame.height)),
            alpha: min(max(mix(from.alpha, to.alpha), 0), 1), scale: max(mix(from.scale, to.scale), 0),
            rotation: mix(from.rotation, to.rotation), zIndex: max(from.zIndex, to.zIndex))
    }
}

/// A change of attributes over time, timed like a scroll (SPEC §3): the first frame after the
/// change draws `from` and its target time is the start; the frame where progress reaches 1 draws
/// `to` exactly.
public struct AttributeTween: Equatable, Sendable {
    public var from: ItemAttributes
    public var to: ItemAttributes
    public var duration: Double
    public var curve: TimingCurve
    /// Seconds to wait after the start before moving (the appear sequence staggers cards).
    public var delay: Double = 0
    public var startTime: Double?

    public init(
        from: ItemAttributes, to: ItemAttributes, duration: Double, curve: TimingCurve = .easeInOut, delay: Double = 0
    ) {
        self.from = from
        self.to = to
        self.duration = duration
        self.curve = curve
        self.delay = delay
    }

    /// The attributes at `time`, and whether the tween has ended there. Starts the clock on its
    /// first call.
    public mutating func value(at time: Double) -> (attributes: ItemAttributes, finished: Bool) {
        guard let start = startTime else {
            startTime = time
            if duration <= 0 && delay <= 0 { return (to, true) }
            return (from, false)
        }
        let elapsed = time - start - delay
        if elapsed < 0 { return (from, false) }
        let progress = duration > 0 ? elapsed / duration : 1
        if progress >= 1 - 1e-9 { return (to, true) }
        return (ItemAttributes.interpolate(from: from, to: to, progress: curve.value(at: progress)), false)
    }

    /// The attributes at `time` without starting or advancing anything (for capturing what is
    /// on screen when a new change arrives).
    public func peek(at time: Double) -> ItemAttributes {
        guard let start = startTime else { return from }
        let elapsed = time - start - delay
        if elapsed <= 0 { return from }
        let progress = duration > 0 ? elapsed / duration : 1
        if progress >= 1 { return to }
        return ItemAttributes.interpolate(from: from, to: to, progress: curve.value(at: progress))
    }
}
