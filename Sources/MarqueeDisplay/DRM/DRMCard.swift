/// The card the outputs Marquee drives live on, shared by them: one open descriptor and so one
/// DRM master for all (two opens of the same card would make the second a client that may not set
/// modes), with the CRTC each output holds, so that an output set up again after a hotplug takes
/// none of another's, and the master dropped when the last output let go.
///
/// With `--seat` the card also holds the seat: the seat manager opened the device once, and a
/// switch to another virtual terminal takes the whole device, so every output on the card stops
/// and comes back together (`DRMBackend+Seat`).
final class DRMCard {
    let device: DRMDevice
    /// With `--seat`: the seat the device came from (nil: opened directly).
    let seat: Seat?
    /// The CRTC each output holds, by output.
    private var crtcs: [ObjectIdentifier: UInt32] = [:]
    /// The outputs on the card, first opened first. Weak: each output holds its card.
    private var members: [Member] = []

    private struct Member {
        weak var output: DRMBackend?
    }

    init(device: DRMDevice, seat: Seat? = nil) {
        self.device = device
        self.seat = seat
    }

    /// `output` drives `crtc` now (at start, and after a hotplug set it up again).
    func claim(_ crtc: UInt32, by output: DRMBackend) {
        crtcs[ObjectIdentifier(output)] = crtc
        if !members.contains(where: { $0.output === output }) { members.append(Member(output: output)) }
    }

    /// The CRTCs the outputs other than `output` hold.
    func crtcs(besides output: AnyObject) -> Set<UInt32> {
        Set(crtcs.filter { $0.key != ObjectIdentifier(output) }.values)
    }

    /// The outputs on the card that have not let go, first opened first.
    var outputs: [DRMBackend] { members.compactMap(\.output) }

    /// `output` restored its CRTC. Returns true when it was the last to hold one: master may go.
    func release(_ output: DRMBackend) -> Bool {
        crtcs[ObjectIdentifier(output)] = nil
        members.removeAll { $0.output === output || $0.output == nil }
        return members.isEmpty
    }
}
