/// A display that can be turned off and on (`display off` / `display on`): on DRM an atomic
/// commit of the CRTC's `ACTIVE` property (legacy DPMS without atomic). No backend conforms yet:
/// that is the displays issue's part. Until then `display off` stops the frames on every backend
/// (the software backend presents none) and leaves the panel showing the last one.
public protocol DisplayPower: AnyObject {
    func setPower(on: Bool) throws(DisplayError)
}
