import CDRM
import Glibc
import MarqueeCore

/// Reads back what the CRTC scans out through a writeback connector (vkms has one; so do some
/// SoCs' display controllers). Used by `snapshot` when `MARQUEE_SNAPSHOT_WRITEBACK=1`, so that a
/// test sees the pixels the display controller produced, not Marquee's own copy of them.
///
/// Writeback needs atomic commits; with legacy modesetting the capture alone turns the atomic
/// capability on. Attaching the connector is a modeset, which on real hardware may blank the
/// screen for a frame: this is a verification tool, off by default.
final class WritebackCapture {
    private let device: DRMDevice
    private let output: DRMOutput
    private let connectorID: UInt32
    private let planeID: UInt32
    private let target: DumbBuffer
    private let connector: WritebackProperties
    private let planeFramebuffer: UInt32

    /// Nil (with the reason logged) when the device has no writeback connector for the CRTC.
    init?(device: DRMDevice, output: DRMOutput, log: (String) -> Void) {
        guard device.enableClientCapability(DRM_CLIENT_CAP_ATOMIC),
            device.enableClientCapability(DRM_CLIENT_CAP_WRITEBACK_CONNECTORS)
        else {
            log("writeback snapshots: the driver refuses atomic or writeback clients")
            return nil
        }
        guard let resources = try? DRMResources(device),
            let connector = resources.connectors.first(where: \.isWriteback),
            let plane = AtomicModesetter.primaryPlane(device: device, crtcIndex: output.crtcIndex),
            let target = try? DumbBuffer(device: device, width: output.mode.width, height: output.mode.height),
            let planeFramebuffer = DRMObjectProperties(
                fd: device.fd, object: plane, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE), kind: "plane"
            )["FB_ID"]?.id
        else {
            log(
                "writeback snapshots: \(device.path) has no writeback connector (vkms: load it with enable_writeback=1)"
            )
            return nil
        }
        self.device = device
        self.output = output
        connectorID = connector.id
        planeID = plane
        self.target = target
        do {
            self.connector = try WritebackProperties(
                DRMObjectProperties(
                    fd: device.fd, object: connector.id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CONNECTOR),
                    kind: "writeback connector"))
        } catch {
            log("writeback snapshots: \(error.message)")
            return nil
        }
        self.planeFramebuffer = planeFramebuffer
        log("writeback snapshots: through connector \(connector.id) (\(connector.name))")
    }

    /// Captures the scan-out of `framebuffer` (the one on screen); throws when the commit or the
    /// fence fails.
    func capture(framebuffer: UInt32) throws(DisplayError) -> PixelBuffer {
        var fence: Int32 = -1
        let committed = withUnsafeMutablePointer(to: &fence) { fencePointer in
            var request = AtomicRequest()
            request.set(planeID, planeFramebuffer, UInt64(framebuffer))
            request.set(connectorID, connector.crtcID, UInt64(output.crtcID))
            request.set(connectorID, connector.framebufferID, UInt64(target.framebufferID))
            request.set(connectorID, connector.outFence, UInt64(UInt(bitPattern: fencePointer)))
            return request.commit(fd: device.fd, flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET))
        }
        if case .failure(let code) = committed {
            throw DisplayError(.systemCall, "writeback commit failed: \(code)", errno: code)
        }
        defer { if fence >= 0 { close(fence) } }
        if fence >= 0 {
            var descriptor = pollfd(fd: fence, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 2000) > 0 else {
                throw DisplayError(.systemCall, "writeback: the capture did not finish within 2 s")
            }
        }
        return FrameCopier.read(target.surface)
    }
}
