import Glibc
import MarqueeCore

/// `display off` / `display on` on fbdev: the session stops rendering, and the panel is powered
/// down with `FBIOBLANK`. fbtft's SPI panels then send their display-off command and drop the
/// backlight; DRM's fbdev emulation turns the CRTC off. Drivers without a blank operation (vfb,
/// simplefb, efifb) refuse it: frames still stop, the panel keeps the last one, and the log says
/// so once. That refusal is not an error (the command did what this driver allows); any other
/// failure is.
extension FbdevBackend: DisplayPower {
    public func setPower(on: Bool) throws(DisplayError) {
        if on {
            guard panelIsBlanked else { return }
            if case .failure(let code) = device.setBlanked(false) {
                throw DisplayError(.systemCall, "fbdev: \(device.path): unblanking failed: \(code)", errno: code)
            }
            panelIsBlanked = false
            log("fbdev: \(device.path) on (FBIOBLANK unblank)")
            return
        }
        guard !panelIsBlanked else { return }
        switch device.setBlanked(true) {
        case .success:
            panelIsBlanked = true
            log("fbdev: \(device.path) off (FBIOBLANK powerdown)")
        case .failure(let code) where code.rawValue == EINVAL || code.rawValue == ENOTTY:
            log(
                "fbdev: \(device.driverName) cannot blank \(device.path) (\(code)): no frames are drawn, the panel keeps the last one"
            )
        case .failure(let code):
            throw DisplayError(.systemCall, "fbdev: \(device.path): blanking failed: \(code)", errno: code)
        }
    }
}
