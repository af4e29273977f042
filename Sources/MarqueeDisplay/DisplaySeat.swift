/// A display opened through a seat manager (`--seat`: libseat, with seatd or logind), which takes
/// the device away while another virtual terminal is in front. The run loop polls
/// `seatDescriptor` and, when it is readable, takes the changes: away, no frames are drawn (time
/// goes on); back, the current frame is drawn.
public protocol DisplaySeat: AnyObject {
    /// Readable when the seat manager has something to say; nil without a seat.
    var seatDescriptor: Int32? { get }
    /// Reads what the seat manager sent and acts on it. Throws when the seat manager is gone.
    func takeSeatChanges() throws(DisplayError) -> [SeatChange]
}

/// The seat went away (a VT switch away) or came back.
public enum SeatChange: String, Equatable, Sendable {
    case away
    case back
}
