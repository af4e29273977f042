/// What the DRM backend does when its seat goes away (the user switched to another virtual
/// terminal) and comes back, apart from the device, so the tests feed it plain values.
///
/// - Away: frames stop (the flip in flight is waited for, the display link pauses: time goes on,
///   nothing is drawn, nothing wakes), then the switch is acknowledged, after which the seat
///   manager takes DRM master from Marquee's file. The CRTC is left as it is: the program on the
///   other VT sets its own mode.
/// - Back: the mode is set again (a full modeset, as `display on` does: the other program left the
///   CRTC as it liked) with the buffer last shown, and the display link resumes; the session then
///   draws the current frame for the first vblank.
/// - A display that is off (`display off`) or unplugged stays so across the switch: nothing is
///   shown when the seat comes back, and `display on` or a reconnect later sets the mode.
struct SeatPlan: Equatable {
    enum Step: Equatable {
        /// Wait for the flip in flight and pause the display link.
        case stopFrames
        /// `libseat_disable_seat`: Marquee no longer touches the device.
        case acknowledge
        /// Set the mode with the buffer last shown.
        case setMode
        /// Resume the display link; the current frame is drawn at its next vblank.
        case resumeFrames
    }

    /// True while the seat is Marquee's: frames, modesets and `display on`/`off` may touch the CRTC.
    private(set) var isActive = true

    /// The steps for `event`, given whether the display is on (`display on`) and connected.
    mutating func handle(_ event: Seat.Event, poweredOn: Bool, connected: Bool) -> [Step] {
        let showing = poweredOn && connected
        switch (event, isActive) {
        case (.disabled, true):
            isActive = false
            return showing ? [.stopFrames, .acknowledge] : [.acknowledge]
        case (.enabled, false):
            isActive = true
            return showing ? [.setMode, .resumeFrames] : []
        case (.disabled, false), (.enabled, true):
            // Already so (the enable that opened the seat at start): nothing to do.
            return []
        }
    }
}

extension SeatPlan {
    /// A step of the card's outputs together (`--connector` more than once): the seat is the
    /// card's, so every output follows the same switch.
    enum CardStep: Equatable {
        /// A step of the output at this index (in `plans`).
        case output(Int, Step)
        /// `libseat_disable_seat`, once for the card.
        case acknowledge
    }

    /// Every output's steps for `event`, in output order, with the acknowledge of a switch away
    /// given once, after every output stopped its frames: the seat manager takes DRM master, and
    /// so every CRTC, as soon as it is told. `poweredOn[i]` and `connected[i]` are output `i`'s.
    static func cardSteps(
        _ event: Seat.Event, plans: inout [SeatPlan], poweredOn: [Bool], connected: [Bool]
    ) -> [CardStep] {
        var steps: [CardStep] = []
        var acknowledges = false
        for index in plans.indices {
            for step in plans[index].handle(event, poweredOn: poweredOn[index], connected: connected[index]) {
                if step == .acknowledge {
                    acknowledges = true
                } else {
                    steps.append(.output(index, step))
                }
            }
        }
        if acknowledges { steps.append(.acknowledge) }
        return steps
    }
}
