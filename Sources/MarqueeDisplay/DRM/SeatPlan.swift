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
