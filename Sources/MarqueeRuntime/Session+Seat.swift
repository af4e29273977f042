import MarqueeDisplay

/// `--seat`: the seat manager's word polled with the other descriptors. The seat is the card's,
/// so a switch takes every output: away on another virtual terminal no output draws (each display
/// link is paused; time goes on); back, every output shows the current frame at its next vblank,
/// and the connectors are probed again, as a display may have been plugged in or out meanwhile.
extension Session {
    /// The seat manager's descriptor (nil without `--seat`). The first output's backend answers
    /// for the whole card.
    var seatDescriptor: Int32? { (backend as? DisplaySeat)?.seatDescriptor }

    func takeSeatChanges() throws(RuntimeError) {
        guard let seat = backend as? DisplaySeat else { return }
        let changes: [SeatChange]
        do { changes = try seat.takeSeatChanges() } catch { throw RuntimeError(error) }
        guard let last = changes.last else { return }
        seatIsAway = last == .away
        guard last == .back else { return }
        // The frame as the scene is now: the display showed another program's picture meanwhile.
        scene.needsRedraw()
        for output in furtherOutputs { output.scene.needsRedraw() }
        probeDisplays()
    }
}
