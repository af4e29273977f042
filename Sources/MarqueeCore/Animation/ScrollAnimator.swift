/// A running scroll (SPEC §3).
public struct ScrollAnimation: Equatable, Sendable {
    public var startOffset: Double
    public var targetOffset: Double
    /// Seconds; 0 jumps on the next frame.
    public var duration: Double
    public var curve: TimingCurve
    /// The `targetTimestamp` of the animation's first frame; nil until that frame is drawn.
    public var startTime: Double?
    /// The progress of the last frame, to notice time going backwards.
    public var lastProgress: Double = 0
    /// Who asked for it (the protocol's command `seq`), echoed in the finished event; nil for a
    /// scroll Marquee started itself (pulling the view back after the content shrank), which
    /// reports nothing.
    public var tag: Int?
}

/// Reported when a scroll ends: reached (`interrupted == false`) or replaced by a newer scroll.
public struct ScrollFinished: Equatable, Sendable {
    public var tag: Int
    public var offset: Double
    public var interrupted: Bool

    public init(tag: Int, offset: Double, interrupted: Bool) {
        self.tag = tag
        self.offset = offset
        self.interrupted = interrupted
    }
}

/// Turns scroll requests into the offset of each frame. Time is passed in, never read: the caller
/// hands over each frame's `targetTimestamp`, so the animator is a pure function of the frames'
/// times and the requests.
public struct ScrollAnimator: Sendable {
    static let progressTolerance = 1e-9

    /// The offset of the last frame computed (and so presented).
    public private(set) var presentedOffset: Double
    public private(set) var animation: ScrollAnimation?

    public init(offset: Double = 0) { presentedOffset = offset }

    public var isAnimating: Bool { animation != nil }

    /// Where the scroll is heading: the running animation's target, else the presented offset.
    public var destination: Double { animation?.targetOffset ?? presentedOffset }

    /// Starts a scroll from the presented offset (so a scroll replacing a running one does not
    /// jump). Returns the replaced scroll's event, if one was running.
    ///
    /// `startTime` fixes when the scroll starts instead of at its first frame (playback's page
    /// moves start exactly when their dwell ends); `tag` nil reports nothing.
    @discardableResult
    public mutating func scroll(
        to target: Double, duration: Double, curve: TimingCurve, tag: Int?, startTime: Double? = nil
    ) -> ScrollFinished? {
        precondition(duration >= 0 && duration.isFinite && target.isFinite, "ScrollAnimator: bad scroll request")
        let replaced = animation.flatMap { running in
            running.tag.map { ScrollFinished(tag: $0, offset: presentedOffset, interrupted: true) }
        }
        animation = ScrollAnimation(
            startOffset: presentedOffset, targetOffset: target, duration: duration, curve: curve, startTime: startTime,
            tag: tag)
        return replaced
    }

    /// Stops any scroll and places the offset (used when the deck changes under it).
    @discardableResult
    public mutating func jump(to offset: Double) -> ScrollFinished? {
        let replaced = animation.flatMap { running in
            running.tag.map { ScrollFinished(tag: $0, offset: offset, interrupted: true) }
        }
        animation = nil
        presentedOffset = offset
        return replaced
    }

    /// Sends the scroll to `target` from the presented offset, keeping the running scroll's tag (its
    /// one event then reports where it really ended) or, if none runs, with no tag at all.
    public mutating func redirect(to target: Double, duration: Double, curve: TimingCurve) {
        let tag = animation?.tag
        animation = ScrollAnimation(
            startOffset: presentedOffset, targetOffset: target, duration: duration, curve: curve, tag: tag)
    }

    /// The offset for the frame that will be shown at `targetTime`; records it as presented.
    /// Returns the finished event when this frame ends the animation (its offset is then exactly
    /// the target).
    ///
    /// `bounds` (the scrollable range) limits what a curve that overshoots (a `cubic-bezier` with
    /// y outside [0, 1]) may show: it bounces past its target within the content, but never past
    /// the content's ends. The range always includes the animation's own start and target, so an
    /// animation that starts outside it (the view following content that shrank) does not jump.
    public mutating func advance(to targetTime: Double, within bounds: ClosedRange<Double>? = nil) -> ScrollFinished? {
        guard var running = animation else { return nil }
        // Nothing to animate (with a start time given in advance, progress would be 0 / 0).
        if running.duration <= 0 && running.startTime != nil { return finish(running) }
        guard let startTime = running.startTime else {
            // First frame: remember when the animation started; it draws the starting offset,
            // unless there is nothing to animate.
            if running.duration <= 0 { return finish(running) }
            running.startTime = targetTime
            animation = running
            presentedOffset = running.startOffset
            return nil
        }
        let progress = (targetTime - startTime) / running.duration
        // Vblank times are multiples of a period that is rarely exact in binary (1/60), so a
        // duration that is a whole number of frames can land a rounding error short of 1.
        if progress >= 1 - Self.progressTolerance || progress < running.lastProgress { return finish(running) }
        running.lastProgress = progress
        animation = running
        let value =
            running.startOffset + (running.targetOffset - running.startOffset) * running.curve.value(at: progress)
        if let bounds {
            let lowest = min(bounds.lowerBound, running.startOffset, running.targetOffset)
            let highest = max(bounds.upperBound, running.startOffset, running.targetOffset)
            presentedOffset = min(max(value, lowest), highest)
        } else {
            presentedOffset = value
        }
        return nil
    }

    private mutating func finish(_ running: ScrollAnimation) -> ScrollFinished? {
        presentedOffset = running.targetOffset
        animation = nil
        return running.tag.map { ScrollFinished(tag: $0, offset: running.targetOffset, interrupted: false) }
    }
}
