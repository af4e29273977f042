import CDRM
import Glibc
import MarqueeCore

/// What a CRTC showed before Marquee took it (framebuffer, position, mode and the connectors it
/// drove), put back at exit so that the console or the program before comes back as it was.
struct SavedCRTC {
    let crtcID: UInt32
    let framebufferID: UInt32
    let x: UInt32
    let y: UInt32
    let mode: drmModeModeInfo?
    let connectorIDs: [UInt32]

    init(device: DRMDevice, crtcID: UInt32, resources: DRMResources) {
        self.crtcID = crtcID
        if let crtc = drmModeGetCrtc(device.fd, crtcID) {
            framebufferID = crtc.pointee.buffer_id
            x = crtc.pointee.x
            y = crtc.pointee.y
            mode = crtc.pointee.mode_valid != 0 ? crtc.pointee.mode : nil
            drmModeFreeCrtc(crtc)
        } else {
            framebufferID = 0
            x = 0
            y = 0
            mode = nil
        }
        connectorIDs = resources.connectors.compactMap { connector in
            guard connector.currentEncoderID != 0,
                let encoder = resources.encoders.first(where: { $0.id == connector.currentEncoderID })
            else { return nil }
            return encoder.crtcID == crtcID ? connector.id : nil
        }
    }

    var description: String {
        guard let mode else { return "CRTC \(crtcID) off" }
        return
            "CRTC \(crtcID): framebuffer \(framebufferID), \(DisplayMode(mode).description), connectors \(connectorIDs)"
    }

    /// Puts the CRTC back (legacy `drmModeSetCrtc`, which every driver takes, atomic or not).
    func restore(on device: DRMDevice) -> Result<Void, Errno> {
        var connectors = connectorIDs
        return SystemCall.run {
            if var mode, framebufferID != 0 {
                return drmModeSetCrtc(
                    device.fd, crtcID, framebufferID, x, y, &connectors, Int32(connectors.count), &mode)
            }
            // It was off: switch it off again.
            return drmModeSetCrtc(device.fd, crtcID, 0, 0, 0, nil, 0, nil)
        }.map { _ in () }
    }
}
