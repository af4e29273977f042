import MarqueeDisplay

/// `--seat`: the seat manager's word polled with the other descriptors. Away on another virtual
/// terminal the backend draws nothing (its display link is paused; time goes on); back, the
/// current frame is drawn for the first vblank.
extension Session {
    /// The seat manager's descriptor (nil without `--seat`).
    var seatDescriptor: Int32? { (backend as? DisplaySeat)?.seatDescriptor }

    func takeSeatChanges() throws(RuntimeError) {
        guard let seat = backend as? DisplaySeat else { return }
        let changes: [SeatChange]
        do { changes = try seat.takeSeatChanges() } catch { throw RuntimeError(error) }
        // The frame as the scene is now: the display showed another program's picture meanwhile.
        if changes.last == .back { scene.needsRedraw() }
    }
}
