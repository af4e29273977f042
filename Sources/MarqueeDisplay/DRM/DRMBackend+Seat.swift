/// `--seat`: the device came from the seat manager, which takes it away on a switch to another
/// virtual terminal and gives it back on the switch back. The seat is the card's (`DRMCard.seat`):
/// the switch takes every output on the card, so any output's `takeSeatChanges` acts for all of
/// them (the session asks the first). What is done then is `SeatPlan`'s.
extension DRMBackend: DisplaySeat {
    public var seatDescriptor: Int32? { card.seat?.fd }

    public func takeSeatChanges() throws(DisplayError) -> [SeatChange] {
        guard let seat = card.seat else { return [] }
        var changes: [SeatChange] = []
        for event in try seat.takeEvents() {
            let outputs = card.outputs.isEmpty ? [self] : card.outputs
            let wasActive = seatPlan.isActive
            var plans = outputs.map(\.seatPlan)
            let steps = SeatPlan.cardSteps(
                event, plans: &plans, poweredOn: outputs.map(\.isPoweredOn), connected: outputs.map(\.isConnected))
            for (output, plan) in zip(outputs, plans) { output.seatPlan = plan }
            // An output whose mode could not be set stays paused: no frames rather than flips the
            // CRTC refuses. `display off` and `on`, a reconnect, or the next switch back set it again.
            var failed = Set<Int>()
            for step in steps {
                switch step {
                case .acknowledge:
                    try seat.acknowledgeDisable()
                case .output(let index, let step) where !failed.contains(index):
                    if !outputs[index].follow(step) { failed.insert(index) }
                case .output:
                    continue
                }
            }
            guard wasActive != seatPlan.isActive else { continue }
            if seatPlan.isActive {
                changes.append(.back)
                for output in outputs {
                    log(
                        "drm: \(seat.name) is back; \(output.isShowing ? "showing \(output.output.connector.name) \(output.output.mode.description) again" : "\(output.output.connector.name) stays \(output.isConnected ? "off" : "disconnected")")"
                    )
                }
            } else {
                changes.append(.away)
                log("drm: \(seat.name) went to another virtual terminal; drawing nothing until it comes back")
            }
        }
        return changes
    }

    /// Does one of `SeatPlan`'s steps on this output; false when setting the mode failed (logged).
    private func follow(_ step: SeatPlan.Step) -> Bool {
        switch step {
        case .stopFrames:
            link.pause()
        case .acknowledge:
            break  // the card's, once for every output (`SeatPlan.cardSteps`)
        case .setMode:
            do {
                try setModeAgain()
            } catch {
                log(
                    "drm: setting the mode of \(output.connector.name) again after the switch back failed: \(error.message)"
                )
                return false
            }
        case .resumeFrames:
            link.resume(crtcIndex: output.crtcIndex, pacing: Self.pacing(for: output.mode, options))
        }
        return true
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
