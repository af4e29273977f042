import CDRM
import Glibc
import MarqueeCore

/// The properties of one KMS object (connector, CRTC or plane) as the kernel lists them, read once
/// at start: each name with its id, current value and, for an enum property, the current value's
/// name. The typed tables (`ConnectorProperties`, `CRTCProperties`, `PlaneProperties`) take the
/// ids they need from it, so no name is looked up after start.
struct DRMObjectProperties {
    struct Entry {
        var id: UInt32
        var value: UInt64
        /// For an enum property, the name of the current value ("Upside Down").
        var enumName: String?
        /// For an enum or bitmask property, every value it offers by name. A bitmask's values are
        /// bit numbers ("rotate-180" is 2: the mask 1 << 2).
        var values: [String: UInt64] = [:]
    }

    /// "connector 31", "CRTC 36", "plane 33", for error messages.
    let object: String
    private var entries: [String: Entry] = [:]

    init(fd: Int32, object id: UInt32, type: UInt32, kind: String) {
        object = "\(kind) \(id)"
        guard let properties = drmModeObjectGetProperties(fd, id, type) else { return }
        defer { drmModeFreeObjectProperties(properties) }
        for index in 0..<Int(properties.pointee.count_props) {
            guard let property = drmModeGetProperty(fd, properties.pointee.props[index]) else { continue }
            defer { drmModeFreeProperty(property) }
            let name = Self.string(property.pointee.name)
            let value = properties.pointee.prop_values[index]
            var enumName: String?
            var values: [String: UInt64] = [:]
            let isEnum = property.pointee.flags & UInt32(DRM_MODE_PROP_ENUM) != 0
            if isEnum || property.pointee.flags & UInt32(DRM_MODE_PROP_BITMASK) != 0 {
                for item in 0..<Int(property.pointee.count_enums) {
                    let entry = property.pointee.enums[item]
                    values[Self.string(entry.name)] = entry.value
                    if isEnum && entry.value == value { enumName = Self.string(entry.name) }
                }
            }
            entries[name] = Entry(id: property.pointee.prop_id, value: value, enumName: enumName, values: values)
        }
    }

    /// For the tests: properties given as plain values.
    init(object: String, entries: [String: Entry]) {
        self.object = object
        self.entries = entries
    }

    subscript(name: String) -> Entry? { entries[name] }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// Takes property ids from a `DRMObjectProperties` by name, noting every required one that is
/// missing, so that a driver lacking several is told about all of them at once, at start.
struct PropertyResolver {
    let properties: DRMObjectProperties
    private(set) var missing: [String] = []

    init(_ properties: DRMObjectProperties) { self.properties = properties }

    mutating func required(_ name: String) -> UInt32 {
        guard let entry = properties[name] else {
            missing.append(name)
            return 0
        }
        return entry.id
    }

    func optional(_ name: String) -> UInt32? { properties[name]?.id }

    /// Throws, naming every missing property, when any required one was missing.
    func check() throws(DisplayError) {
        guard !missing.isEmpty else { return }
        throw DisplayError(
            .backendUnavailable,
            "the driver's \(properties.object) lacks the atomic properties \(missing.joined(separator: ", ")); try --no-atomic"
        )
    }
}

/// The CRTC properties of an atomic modeset.
struct CRTCProperties {
    let active: UInt32
    let modeID: UInt32

    init(_ properties: DRMObjectProperties) throws(DisplayError) {
        var resolver = PropertyResolver(properties)
        active = resolver.required("ACTIVE")
        modeID = resolver.required("MODE_ID")
        try resolver.check()
    }
}

/// The primary plane's properties: where its framebuffer comes from and where it goes.
struct PlaneProperties {
    let framebufferID: UInt32
    let crtcID: UInt32
    let sourceX: UInt32, sourceY: UInt32, sourceWidth: UInt32, sourceHeight: UInt32
    let crtcX: UInt32, crtcY: UInt32, crtcWidth: UInt32, crtcHeight: UInt32
    /// `FB_DAMAGE_CLIPS`, where the driver takes damage (nil: it scans out everything anyway).
    let damageClips: UInt32?
    /// `rotation`, where the plane can turn or mirror what it scans out (nil: it cannot).
    let rotation: PlaneRotation?

    init(_ properties: DRMObjectProperties) throws(DisplayError) {
        var resolver = PropertyResolver(properties)
        framebufferID = resolver.required("FB_ID")
        crtcID = resolver.required("CRTC_ID")
        sourceX = resolver.required("SRC_X")
        sourceY = resolver.required("SRC_Y")
        sourceWidth = resolver.required("SRC_W")
        sourceHeight = resolver.required("SRC_H")
        crtcX = resolver.required("CRTC_X")
        crtcY = resolver.required("CRTC_Y")
        crtcWidth = resolver.required("CRTC_W")
        crtcHeight = resolver.required("CRTC_H")
        damageClips = resolver.optional("FB_DAMAGE_CLIPS")
        rotation = properties["rotation"].map(PlaneRotation.init)
        try resolver.check()
    }
}

/// A plane's `rotation` property: a bitmask of one turn (`rotate-0`, `rotate-90`, `rotate-180`,
/// `rotate-270`, counter-clockwise) and reflections, of which each driver offers its own set
/// (drm_blend.c). Marquee asks only for `rotate-180`, which turns the frame the same way whichever
/// sense a turn is counted in (or `reflect-x` with `reflect-y`, the same picture), and `rotate-0` to
/// undo a turn left by the program before.
struct PlaneRotation {
    let id: UInt32
    /// The value found at start, put back at exit.
    let initialValue: UInt64
    /// The masks of the values the driver offers, by name.
    private let masks: [String: UInt64]

    init(_ entry: DRMObjectProperties.Entry) {
        id = entry.id
        initialValue = entry.value
        masks = entry.values.compactMapValues { bit in bit < 64 ? UInt64(1) << bit : nil }
    }

    /// The value that has the plane turn its framebuffer by `rotation` on the way to the CRTC, if
    /// the driver offers it; `.none` is always `rotate-0`.
    func value(for rotation: Rotation) -> UInt64? {
        switch rotation {
        case .none: return masks["rotate-0"] ?? 1
        case .half:
            // Mirrored both ways is the same half turn; a driver may list only the mirrors (as
            // MediaTek's did before it listed rotate-180 too).
            if let half = masks["rotate-180"] { return half }
            guard let none = masks["rotate-0"], let x = masks["reflect-x"], let y = masks["reflect-y"] else {
                return nil
            }
            return none | x | y
        case .quarter, .threeQuarters: return nil
        }
    }
}

/// The connector's properties Marquee uses: the CRTC it is bound to (atomic), DPMS (legacy
/// `display off`), and the panel's mounting (`panel orientation`).
struct ConnectorProperties {
    /// `CRTC_ID`; nil on a driver without atomic (only atomic commits use it).
    let crtcID: UInt32?
    /// The legacy `DPMS` property, which every KMS driver lists.
    let dpms: UInt32?
    /// The rotation the `panel orientation` property asks for (nil: the property is absent or
    /// says "Normal").
    let panelRotation: Rotation?
    /// The value the property reported ("Upside Down"), for the log.
    let panelOrientation: String?

    init(_ properties: DRMObjectProperties) {
        crtcID = properties["CRTC_ID"]?.id
        dpms = properties["DPMS"]?.id
        panelOrientation = properties["panel orientation"]?.enumName
        panelRotation = panelOrientation.flatMap(Self.rotation(forPanelOrientation:))
    }

    /// The picture's turn that undoes a panel's mounting, from the kernel's `panel orientation`
    /// names (drivers/gpu/drm/drm_connector.c, `drm_panel_orientation_enum_list`), turned as the
    /// kernel's own console turns for it (drm_fb_helper.c: "Right Side Up" is DRM_MODE_ROTATE_270,
    /// counter-clockwise, which is `fbcon=rotate:1`, Marquee's `--rotate 90`).
    static func rotation(forPanelOrientation name: String) -> Rotation? {
        switch name {
        case "Upside Down": return .half
        case "Left Side Up": return .threeQuarters
        case "Right Side Up": return .quarter
        default: return nil
        }
    }
}

/// The writeback connector's properties (for snapshots read back from the display).
struct WritebackProperties {
    let crtcID: UInt32
    let framebufferID: UInt32
    let outFence: UInt32

    init(_ properties: DRMObjectProperties) throws(DisplayError) {
        var resolver = PropertyResolver(properties)
        crtcID = resolver.required("CRTC_ID")
        framebufferID = resolver.required("WRITEBACK_FB_ID")
        outFence = resolver.required("WRITEBACK_OUT_FENCE_PTR")
        try resolver.check()
    }
}

/// An atomic request under construction, freed with the value. Property ids come from the typed
/// tables, resolved at start.
struct AtomicRequest: ~Copyable {
    let request: OpaquePointer
    /// False once a property could not be added (out of memory): the request must not be
    /// committed half-built.
    private(set) var isComplete = true

    init() {
        guard let request = drmModeAtomicAlloc() else { fatalError("drmModeAtomicAlloc: out of memory") }
        self.request = request
    }

    deinit { drmModeAtomicFree(request) }

    mutating func set(_ object: UInt32, _ property: UInt32, _ value: UInt64) {
        if drmModeAtomicAddProperty(request, object, property, value) < 0 { isComplete = false }
    }

    /// Commits (`drmModeAtomicCommit`), with the errno of a failure.
    func commit(fd: Int32, flags: UInt32, userData: UnsafeMutableRawPointer? = nil) -> Result<Void, Errno> {
        guard isComplete else { return .failure(Errno(rawValue: ENOMEM)) }
        return SystemCall.runReturningCode { drmModeAtomicCommit(fd, request, flags, userData) }.map { _ in () }
    }
}
