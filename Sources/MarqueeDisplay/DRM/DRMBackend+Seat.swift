/// `--seat`: the device came from the seat manager, which takes it away on a switch to another
/// virtual terminal and gives it back on the switch back. What is done then is `SeatPlan`'s.
extension DRMBackend: DisplaySeat {
    public var seatDescriptor: Int32? { seat?.fd }

    public func takeSeatChanges() throws(DisplayError) -> [SeatChange] {
        guard let seat else { return [] }
        var changes: [SeatChange] = []
        for event in try seat.takeEvents() {
            let wasActive = seatPlan.isActive
            steps: for step in seatPlan.handle(event, poweredOn: isPoweredOn, connected: isConnected) {
                switch step {
                case .stopFrames:
                    link.pause()
                case .acknowledge:
                    try seat.acknowledgeDisable()
                case .setMode:
                    do {
                        try setModeAgain()
                    } catch {
                        // The link stays paused: no frames rather than flips the CRTC refuses.
                        // `display off` and `on`, a reconnect, or the next switch back set it again.
                        log("drm: setting the mode again after the switch back failed: \(error.message)")
                        break steps
                    }
                case .resumeFrames:
                    link.resume(crtcIndex: output.crtcIndex, pacing: Self.pacing(for: output.mode, options))
                }
            }
            guard wasActive != seatPlan.isActive else { continue }
            if seatPlan.isActive {
                changes.append(.back)
                log(
                    "drm: \(seat.name) is back; \(isShowing ? "showing \(output.connector.name) \(output.mode.description) again" : "the display stays \(isConnected ? "off" : "disconnected")")"
                )
            } else {
                changes.append(.away)
                log("drm: \(seat.name) went to another virtual terminal; drawing nothing until it comes back")
            }
        }
        return changes
    }

    /// seatd drops Marquee's DRM master before it sends the `disable` (logind likewise may), so a
    /// flip in that moment fails with EACCES. Not an error: the frames stop here, and the
    /// `disable` that follows is acknowledged as usual.
    func seatTookTheDevice() {
        link.pause()
        log(
            "drm: the seat manager took \(device.path) away (a switch to another virtual terminal); no frames until it gives it back"
        )
    }
}
