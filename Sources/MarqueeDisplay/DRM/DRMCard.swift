/// The card the outputs Marquee drives live on, shared by them: one open descriptor and so one
/// DRM master for all (two opens of the same card would make the second a client that may not set
/// modes), with the CRTC each output holds, so that an output set up again after a hotplug takes
/// none of another's, and the master dropped when the last output let go.
final class DRMCard {
    let device: DRMDevice
    /// The CRTC each output holds, by output.
    private var crtcs: [ObjectIdentifier: UInt32] = [:]
    private var users = Set<ObjectIdentifier>()

    init(device: DRMDevice) { self.device = device }

    /// `output` drives `crtc` now (at start, and after a hotplug set it up again).
    func claim(_ crtc: UInt32, by output: AnyObject) {
        crtcs[ObjectIdentifier(output)] = crtc
        users.insert(ObjectIdentifier(output))
    }

    /// The CRTCs the outputs other than `output` hold.
    func crtcs(besides output: AnyObject) -> Set<UInt32> {
        Set(crtcs.filter { $0.key != ObjectIdentifier(output) }.values)
    }

    /// `output` restored its CRTC. Returns true when it was the last to hold one: master may go.
    func release(_ output: AnyObject) -> Bool {
        crtcs[ObjectIdentifier(output)] = nil
        users.remove(ObjectIdentifier(output))
        return users.isEmpty
    }
}
