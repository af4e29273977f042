import CDRM
import Glibc

/// Sets the mode once and flips framebuffers after: with atomic commits where the driver offers
/// them, with the legacy `drmModeSetCrtc` and `drmModePageFlip` otherwise (or with `--no-atomic`).
/// Both ask for a page-flip event, delivered to `events` by `drmHandleEvent`.
protocol DRMModesetter {
    /// "atomic" or "legacy", for the log.
    var name: String { get }
    func setMode(framebuffer: UInt32) throws(DisplayError)
    /// Queues a flip to `framebuffer` at the next vblank. `damage`: the part of the panel that
    /// differs from the frame on screen (nil: all of it). Returns 0 or the errno.
    func flip(to framebuffer: UInt32, damage: DamageClip?, events: UnsafeMutablePointer<marquee_drm_events>) -> Int32
}

struct LegacyModesetter: DRMModesetter {
    let device: DRMDevice
    let output: DRMOutput
    var name: String { "legacy" }

    func setMode(framebuffer: UInt32) throws(DisplayError) {
        var connector = output.connector.id
        var mode = output.mode.info
        guard drmModeSetCrtc(device.fd, output.crtcID, framebuffer, 0, 0, &connector, 1, &mode) == 0 else {
            let code = errno
            throw DisplayError(
                .systemCall,
                "\(device.path): setting \(output.mode.description) on \(output.connector.name) failed: \(String(cString: strerror(code)))",
                errno: code)
        }
    }

    /// A legacy page flip carries no damage: drivers that upload damage (SPI and USB panels)
    /// send the whole frame. `drmModeDirtyFB` would not help here: it reports damage to a
    /// framebuffer already on screen, so after a flip it would make such a driver send the rows
    /// twice (docs/architecture.md, "Damage to the kernel").
    func flip(to framebuffer: UInt32, damage: DamageClip?, events: UnsafeMutablePointer<marquee_drm_events>) -> Int32 {
        drmModePageFlip(device.fd, output.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), events) == 0
            ? 0 : errno
    }
}

struct AtomicModesetter: DRMModesetter {
    let device: DRMDevice
    let output: DRMOutput
    let planeID: UInt32
    private let connectorProperties: DRMProperties
    private let crtcProperties: DRMProperties
    private let planeProperties: DRMProperties
    var name: String { "atomic" }

    /// Nil when the driver refuses atomic commits or has no primary plane for the CRTC (the
    /// caller then falls back to legacy modesetting).
    init?(device: DRMDevice, output: DRMOutput) {
        guard device.enableClientCapability(DRM_CLIENT_CAP_ATOMIC),
            let plane = Self.primaryPlane(device: device, crtcIndex: output.crtcIndex)
        else { return nil }
        self.device = device
        self.output = output
        planeID = plane
        connectorProperties = DRMProperties(
            fd: device.fd, object: output.connector.id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CONNECTOR))
        crtcProperties = DRMProperties(
            fd: device.fd, object: output.crtcID, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CRTC))
        planeProperties = DRMProperties(
            fd: device.fd, object: plane, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE))
    }

    /// The primary plane that can feed the CRTC (planes are listed once the atomic capability is on).
    static func primaryPlane(device: DRMDevice, crtcIndex: Int) -> UInt32? {
        guard let planes = drmModeGetPlaneResources(device.fd) else { return nil }
        defer { drmModeFreePlaneResources(planes) }
        for index in 0..<Int(planes.pointee.count_planes) {
            let id = planes.pointee.planes[index]
            guard let plane = drmModeGetPlane(device.fd, id) else { continue }
            let possible = plane.pointee.possible_crtcs
            drmModeFreePlane(plane)
            let properties = DRMProperties(
                fd: device.fd, object: id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE))
            if properties.value("type") == UInt64(DRM_PLANE_TYPE_PRIMARY), possible & (1 << UInt32(crtcIndex)) != 0 {
                return id
            }
        }
        return nil
    }

    func setMode(framebuffer: UInt32) throws(DisplayError) {
        var mode = output.mode.info
        var blob: UInt32 = 0
        guard drmModeCreatePropertyBlob(device.fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob) == 0 else {
            throw DisplayError(
                .systemCall, "\(device.path): cannot create the mode blob: \(String(cString: strerror(errno)))",
                errno: errno)
        }
        defer { _ = drmModeDestroyPropertyBlob(device.fd, blob) }
        var request = AtomicRequest()
        request.set(output.connector.id, connectorProperties, "CRTC_ID", UInt64(output.crtcID))
        request.set(output.crtcID, crtcProperties, "MODE_ID", UInt64(blob))
        request.set(output.crtcID, crtcProperties, "ACTIVE", 1)
        setPlane(&request, framebuffer: framebuffer)
        guard request.missing.isEmpty else {
            throw DisplayError(
                .backendUnavailable,
                "\(device.path): the driver lacks the atomic properties \(request.missing.joined(separator: ", ")); try --no-atomic"
            )
        }
        let result = request.commit(fd: device.fd, flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET))
        guard result == 0 else {
            throw DisplayError(
                .systemCall,
                "\(device.path): the atomic modeset of \(output.mode.description) on \(output.connector.name) failed: \(String(cString: strerror(result)))",
                errno: result)
        }
    }

    func setPlane(_ request: inout AtomicRequest, framebuffer: UInt32) {
        let width = UInt64(output.mode.width), height = UInt64(output.mode.height)
        request.set(planeID, planeProperties, "FB_ID", UInt64(framebuffer))
        request.set(planeID, planeProperties, "CRTC_ID", UInt64(output.crtcID))
        request.set(planeID, planeProperties, "SRC_X", 0)
        request.set(planeID, planeProperties, "SRC_Y", 0)
        request.set(planeID, planeProperties, "SRC_W", width << 16)
        request.set(planeID, planeProperties, "SRC_H", height << 16)
        request.set(planeID, planeProperties, "CRTC_X", 0)
        request.set(planeID, planeProperties, "CRTC_Y", 0)
        request.set(planeID, planeProperties, "CRTC_W", width)
        request.set(planeID, planeProperties, "CRTC_H", height)
    }

    func flip(to framebuffer: UInt32, damage: DamageClip?, events: UnsafeMutablePointer<marquee_drm_events>) -> Int32 {
        var request = AtomicRequest()
        request.set(planeID, planeProperties, "FB_ID", UInt64(framebuffer))
        // FB_DAMAGE_CLIPS: a blob of `struct drm_mode_rect`, kept by the commit that takes it, so
        // Marquee's handle is dropped at once. A driver without the property gets no clips (it
        // scans out the whole buffer anyway); a blob that cannot be made leaves the whole frame
        // damaged, as without clips.
        var blob: UInt32 = 0
        if let damage, let property = planeProperties.id("FB_DAMAGE_CLIPS") {
            var rect = drm_mode_rect(x1: damage.x1, y1: damage.y1, x2: damage.x2, y2: damage.y2)
            if drmModeCreatePropertyBlob(device.fd, &rect, MemoryLayout<drm_mode_rect>.size, &blob) == 0,
                drmModeAtomicAddProperty(request.request, planeID, property, UInt64(blob)) < 0
            {
                _ = drmModeDestroyPropertyBlob(device.fd, blob)
                blob = 0
            }
        }
        defer { if blob != 0 { _ = drmModeDestroyPropertyBlob(device.fd, blob) } }
        return request.commit(
            fd: device.fd, flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK), userData: events)
    }
}
