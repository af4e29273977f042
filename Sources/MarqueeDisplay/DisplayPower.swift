/// A display that can be turned off and on (`display off` / `display on`). The DRM backend turns
/// its CRTC off (an atomic commit of `ACTIVE = 0`, legacy DPMS without atomic) and, on, sets the
/// mode again and shows the current frame at the next vblank; fbdev powers the panel down with
/// `FBIOBLANK` where its driver can. Backends without it (software, window) stop the frames only:
/// the session renders none while the display is off.
public protocol DisplayPower: AnyObject {
    /// Throws when the driver refuses; the display is then as it was.
    func setPower(on: Bool) throws(DisplayError)
}
