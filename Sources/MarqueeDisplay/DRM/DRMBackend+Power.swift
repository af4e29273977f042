/// `display off` / `display on` on DRM.
///
/// Off: the flip in flight completes, the display link stops asking for events, and the CRTC goes
/// off (atomic `ACTIVE = 0`, or legacy DPMS off), keeping its mode, so the display sees no signal
/// and may go to standby. No frame is flipped and no vblank event arrives while it is off; the
/// session renders none either, and time goes on.
///
/// On: the mode is set again with the buffer last shown (a full modeset, as after a hotplug, so a
/// display that lost its mode meanwhile gets it back), and a frame asked for meanwhile is drawn at
/// the next vblank: the current frame, at the scene's time then.
extension DRMBackend: DisplayPower {
    public func setPower(on: Bool) throws(DisplayError) {
        guard on != isPoweredOn else { return }
        guard isConnected, isSeatActive else {
            // Nothing is shown while unplugged (or away on another VT); the display comes back on
            // or off as asked.
            isPoweredOn = on
            return
        }
        if on {
            try modesetter.setMode(framebuffer: buffers[front].framebufferID)
            isPoweredOn = true
            link.resume(crtcIndex: output.crtcIndex, pacing: Self.pacing(for: output.mode, options))
            log("drm: \(output.connector.name) on (\(output.mode.description))")
        } else {
            link.pause()
            do {
                try modesetter.turnOff()
            } catch {
                link.resume(crtcIndex: output.crtcIndex)
                throw error
            }
            // Vblank events pending when the CRTC stopped are completed by the kernel now.
            link.drainEvents()
            isPoweredOn = false
            log("drm: \(output.connector.name) off (\(modesetter.name == "atomic" ? "CRTC ACTIVE=0" : "DPMS off"))")
        }
    }
}
