import CDRM
import Glibc
import MarqueeCore

/// Sets the mode and flips framebuffers after: with atomic commits where the driver offers them,
/// with the legacy `drmModeSetCrtc` and `drmModePageFlip` otherwise (or with `--no-atomic`). Both
/// ask for a page-flip event, delivered to `events` by `drmHandleEvent`.
protocol DRMModesetter {
    /// "atomic" or "legacy", for the log.
    var name: String { get }
    var device: DRMDevice { get }
    var output: DRMOutput { get }
    /// The turn the display plane gives the frames on their way to the panel (set with the mode):
    /// `.half` where the plane turns them for `--rotate 180`, so they are copied unturned; else
    /// `.none`, and any turn is made while copying.
    var planeRotation: Rotation { get }
    /// Sets the output's mode showing `framebuffer`, turning the CRTC on if it was off.
    func setMode(framebuffer: UInt32) throws(DisplayError)
    /// Queues a flip to `framebuffer` at the next vblank. `damage`: the parts of the panel that
    /// differ from the frame on screen (nil: all of it).
    func flip(to framebuffer: UInt32, damage: DamageClips?, events: UnsafeMutablePointer<marquee_drm_events>)
        -> Result<Void, Errno>
    /// Turns the display off (`display off`): the CRTC stops scanning out and sending vblanks, and
    /// keeps its mode for `setMode` to turn it on again.
    func turnOff() throws(DisplayError)
}

extension DRMModesetter {
    func failure(_ what: String, _ code: Errno) -> DisplayError {
        DisplayError(.systemCall, "\(device.path): \(what) failed: \(code)", errno: code)
    }
}

struct LegacyModesetter: DRMModesetter {
    let device: DRMDevice
    let output: DRMOutput
    private let dpms: UInt32?
    var name: String { "legacy" }
    /// Legacy modesetting sets no plane property: turns are made while copying.
    var planeRotation: Rotation { .none }

    init(device: DRMDevice, output: DRMOutput) {
        self.device = device
        self.output = output
        dpms = output.connector.properties.dpms
    }

    func setMode(framebuffer: UInt32) throws(DisplayError) {
        let fd = device.fd
        // After `display off` the connector's DPMS is off, which a mode set alone does not undo
        // on every driver.
        if let dpms {
            _ = SystemCall.run {
                drmModeConnectorSetProperty(fd, output.connector.id, dpms, UInt64(DRM_MODE_DPMS_ON))
            }
        }
        var connector = output.connector.id
        var mode = output.mode.info
        let result = SystemCall.run {
            drmModeSetCrtc(fd, output.crtcID, framebuffer, 0, 0, &connector, 1, &mode)
        }
        if case .failure(let code) = result {
            throw failure("setting \(output.mode.description) on \(output.connector.name)", code)
        }
    }

    /// A legacy page flip carries no damage: drivers that upload damage (SPI and USB panels)
    /// send the whole frame. `drmModeDirtyFB` would not help here: it reports damage to a
    /// framebuffer already on screen, so after a flip it would make such a driver send the rows
    /// twice (docs/architecture.md, "Damage to the kernel").
    func flip(to framebuffer: UInt32, damage: DamageClips?, events: UnsafeMutablePointer<marquee_drm_events>)
        -> Result<Void, Errno>
    {
        SystemCall.run {
            drmModePageFlip(device.fd, output.crtcID, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), events)
        }.map { _ in () }
    }

    /// Legacy DPMS: the connector's `DPMS` property set to off (drivers built on the atomic
    /// helpers turn the CRTC's ACTIVE off for it).
    func turnOff() throws(DisplayError) {
        guard let dpms else {
            throw DisplayError(
                .backendUnavailable, "\(output.connector.name) has no DPMS property; it cannot be turned off")
        }
        let result = SystemCall.run {
            drmModeConnectorSetProperty(device.fd, output.connector.id, dpms, UInt64(DRM_MODE_DPMS_OFF))
        }
        if case .failure(let code) = result { throw failure("DPMS off on \(output.connector.name)", code) }
    }
}

struct AtomicModesetter: DRMModesetter {
    let device: DRMDevice
    let output: DRMOutput
    let planeID: UInt32
    private let connectorCRTC: UInt32
    private let crtc: CRTCProperties
    let plane: PlaneProperties
    var name: String { "atomic" }
    let planeRotation: Rotation
    /// The `rotation` value every modeset gives the plane: `planeRotation`'s, which is `rotate-0`
    /// where Marquee turns the frames itself (a turn left on the plane by the program before would
    /// otherwise turn them once more); nil where the plane has no such property.
    let planeRotationValue: UInt64?

    /// Throws when the driver refuses atomic commits, has no primary plane for the CRTC, or lacks
    /// a property an atomic modeset needs (the caller then falls back to legacy modesetting).
    /// `rotation`: the turn the frames need; the plane takes it where it can (a half turn, where
    /// the driver offers `rotate-180`) unless `turnsInPlane` is false.
    init(device: DRMDevice, output: DRMOutput, rotation: Rotation, turnsInPlane: Bool = true)
        throws(DisplayError)
    {
        guard device.enableClientCapability(DRM_CLIENT_CAP_ATOMIC) else {
            throw DisplayError(.backendUnavailable, "the driver offers no atomic modesetting")
        }
        guard let plane = Self.primaryPlane(device: device, crtcIndex: output.crtcIndex) else {
            throw DisplayError(.backendUnavailable, "the driver has no primary plane for CRTC \(output.crtcID)")
        }
        // The connector's atomic properties (CRTC_ID) are listed only to a client with the atomic
        // capability, which the start's probe did not have yet.
        let connectorProperties = ConnectorProperties(
            DRMObjectProperties(
                fd: device.fd, object: output.connector.id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CONNECTOR),
                kind: "connector"))
        guard let connectorCRTC = connectorProperties.crtcID else {
            throw DisplayError(
                .backendUnavailable, "the driver's connector \(output.connector.id) lacks the atomic property CRTC_ID")
        }
        self.device = device
        self.output = output
        planeID = plane
        self.connectorCRTC = connectorCRTC
        crtc = try CRTCProperties(
            DRMObjectProperties(
                fd: device.fd, object: output.crtcID, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CRTC),
                kind: "CRTC"))
        let properties = try PlaneProperties(
            DRMObjectProperties(
                fd: device.fd, object: plane, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE), kind: "plane"))
        self.plane = properties
        let turned = turnsInPlane && rotation != .none ? properties.rotation?.value(for: rotation) : nil
        planeRotation = turned == nil ? .none : rotation
        planeRotationValue = turned ?? properties.rotation?.value(for: .none)
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
            guard possible & (1 << UInt32(crtcIndex)) != 0 else { continue }
            let properties = DRMObjectProperties(
                fd: device.fd, object: id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_PLANE), kind: "plane")
            if properties["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) { return id }
        }
        return nil
    }

    func setMode(framebuffer: UInt32) throws(DisplayError) {
        let fd = device.fd
        var mode = output.mode.info
        var blob: UInt32 = 0
        let created = SystemCall.run {
            drmModeCreatePropertyBlob(fd, &mode, MemoryLayout<drmModeModeInfo>.size, &blob)
        }
        if case .failure(let code) = created { throw failure("creating the mode blob", code) }
        defer { _ = drmModeDestroyPropertyBlob(fd, blob) }
        var request = AtomicRequest()
        request.set(output.connector.id, connectorCRTC, UInt64(output.crtcID))
        request.set(output.crtcID, crtc.modeID, UInt64(blob))
        request.set(output.crtcID, crtc.active, 1)
        setPlane(&request, framebuffer: framebuffer)
        if case .failure(let code) = request.commit(fd: fd, flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)) {
            throw failure("the atomic modeset of \(output.mode.description) on \(output.connector.name)", code)
        }
    }

    func setPlane(_ request: inout AtomicRequest, framebuffer: UInt32) {
        let width = UInt64(output.mode.width), height = UInt64(output.mode.height)
        request.set(planeID, plane.framebufferID, UInt64(framebuffer))
        request.set(planeID, plane.crtcID, UInt64(output.crtcID))
        request.set(planeID, plane.sourceX, 0)
        request.set(planeID, plane.sourceY, 0)
        request.set(planeID, plane.sourceWidth, width << 16)
        request.set(planeID, plane.sourceHeight, height << 16)
        request.set(planeID, plane.crtcX, 0)
        request.set(planeID, plane.crtcY, 0)
        request.set(planeID, plane.crtcWidth, width)
        request.set(planeID, plane.crtcHeight, height)
        if let planeRotationValue, let property = plane.rotation {
            request.set(planeID, property.id, planeRotationValue)
        }
    }

    func flip(to framebuffer: UInt32, damage: DamageClips?, events: UnsafeMutablePointer<marquee_drm_events>)
        -> Result<Void, Errno>
    {
        let fd = device.fd
        var request = AtomicRequest()
        request.set(planeID, plane.framebufferID, UInt64(framebuffer))
        // FB_DAMAGE_CLIPS: a blob of `struct drm_mode_rect`s, one a band, kept by the commit that
        // takes it, so Marquee's handle is dropped at once (below, whatever the commit answers:
        // no blob outlives its frame). The rects are gathered on the stack (no allocation a
        // frame). A driver without the property gets no clips (it scans out the whole buffer
        // anyway); a blob that cannot be made leaves the whole frame damaged, as without clips.
        var blob: UInt32 = 0
        if let damage, !damage.isEmpty, let property = plane.damageClips {
            withUnsafeTemporaryAllocation(of: drm_mode_rect.self, capacity: damage.count) { rects in
                for (index, clip) in damage.enumerated() {
                    rects.initializeElement(
                        at: index, to: drm_mode_rect(x1: clip.x1, y1: clip.y1, x2: clip.x2, y2: clip.y2))
                }
                let bytes = MemoryLayout<drm_mode_rect>.stride * damage.count
                if drmModeCreatePropertyBlob(fd, rects.baseAddress, bytes, &blob) == 0 {
                    request.set(planeID, property, UInt64(blob))
                }
            }
        }
        defer { if blob != 0 { _ = drmModeDestroyPropertyBlob(fd, blob) } }
        return request.commit(
            fd: fd, flags: UInt32(DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK), userData: events)
    }

    /// `ACTIVE = 0`: the CRTC keeps its mode, connector and plane (the kernel's own DPMS helper
    /// does the same), so `setMode` brings it back as it was.
    func turnOff() throws(DisplayError) {
        var request = AtomicRequest()
        request.set(output.crtcID, crtc.active, 0)
        if case .failure(let code) = request.commit(
            fd: device.fd, flags: UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET))
        {
            throw failure("turning off CRTC \(output.crtcID)", code)
        }
    }
}
