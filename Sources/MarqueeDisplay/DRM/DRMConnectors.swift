import CDRM
import Glibc
import MarqueeCore

/// One mode a connector offers, with its exact refresh rate from the timings.
struct DisplayMode {
    var info: drmModeModeInfo
    var width: Int { Int(info.hdisplay) }
    var height: Int { Int(info.vdisplay) }
    var isPreferred: Bool { info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 }

    init(_ info: drmModeModeInfo) { self.info = info }

    /// Hz from the pixel clock and totals (SPEC §1: not the rounded `vrefresh`); 0 when the
    /// driver reports no timings.
    var refreshRate: Double {
        guard info.htotal > 0, info.vtotal > 0, info.clock > 0 else { return 0 }
        var rate = Double(info.clock) * 1000 / (Double(info.htotal) * Double(info.vtotal))
        if info.flags & UInt32(DRM_MODE_FLAG_INTERLACE) != 0 { rate *= 2 }
        if info.flags & UInt32(DRM_MODE_FLAG_DBLSCAN) != 0 { rate /= 2 }
        if info.vscan > 1 { rate /= Double(info.vscan) }
        return rate
    }

    /// "1920x1080@60" (the `display` event's `mode`).
    var name: String {
        "\(width)x\(height)@\(FramePacing.hertz(refreshRate > 0 ? refreshRate : Double(info.vrefresh)))"
    }

    var description: String { name + (isPreferred ? " (preferred)" : "") }
}

/// A connector as the kernel names it (`HDMI-A-1`: type name, dash, index among that type).
struct ConnectorInfo {
    var id: UInt32
    var name: String
    var isConnected: Bool
    var isWriteback: Bool
    var modes: [DisplayMode]
    var encoderIDs: [UInt32]
    var currentEncoderID: UInt32
    var properties: ConnectorProperties

    init(
        id: UInt32, name: String, isConnected: Bool, isWriteback: Bool = false, modes: [DisplayMode],
        encoderIDs: [UInt32], currentEncoderID: UInt32 = 0,
        properties: ConnectorProperties = ConnectorProperties(DRMObjectProperties(object: "connector", entries: [:]))
    ) {
        self.id = id
        self.name = name
        self.isConnected = isConnected
        self.isWriteback = isWriteback
        self.modes = modes
        self.encoderIDs = encoderIDs
        self.currentEncoderID = currentEncoderID
        self.properties = properties
    }

    init(_ connector: UnsafeMutablePointer<drmModeConnector>, fd: Int32) {
        let value = connector.pointee
        let typeName = drmModeGetConnectorTypeName(value.connector_type).map { String(cString: $0) } ?? "Unknown"
        self.init(
            id: value.connector_id, name: "\(typeName)-\(value.connector_type_id)",
            isConnected: value.connection == DRM_MODE_CONNECTED,
            isWriteback: value.connector_type == UInt32(DRM_MODE_CONNECTOR_WRITEBACK),
            modes: (0..<Int(value.count_modes)).map { DisplayMode(value.modes[$0]) },
            encoderIDs: (0..<Int(value.count_encoders)).map { value.encoders[$0] },
            currentEncoderID: value.encoder_id,
            properties: ConnectorProperties(
                DRMObjectProperties(
                    fd: fd, object: value.connector_id, type: UInt32(truncatingIfNeeded: DRM_MODE_OBJECT_CONNECTOR),
                    kind: "connector")))
    }

    var status: String { isConnected ? "connected" : "disconnected" }
}

/// An encoder: the CRTC it feeds now (0: none) and the CRTCs it can feed (a bit per CRTC index).
struct EncoderInfo {
    var id: UInt32
    var crtcID: UInt32
    var possibleCRTCs: UInt32
}

/// The device's CRTCs, encoders and connectors, read at start and again on every hotplug event.
struct DRMResources {
    var crtcIDs: [UInt32]
    var encoders: [EncoderInfo]
    var connectors: [ConnectorInfo]

    init(crtcIDs: [UInt32], encoders: [EncoderInfo], connectors: [ConnectorInfo]) {
        self.crtcIDs = crtcIDs
        self.encoders = encoders
        self.connectors = connectors
    }

    /// Reads them (`drmModeGetResources`; `drmModeGetConnector` probes each connector, which is
    /// what notices a display plugged in or out).
    init(_ device: DRMDevice) throws(DisplayError) {
        let resources: UnsafeMutablePointer<drmModeRes>
        switch SystemCall.pointer({ drmModeGetResources(device.fd) }) {
        case .success(let value): resources = value
        case .failure(let code):
            throw DisplayError(
                .backendUnavailable,
                "\(device.path) offers no modesetting (drmModeGetResources failed: \(code)); is it a render-only device?",
                errno: code)
        }
        defer { drmModeFreeResources(resources) }
        let value = resources.pointee
        crtcIDs = (0..<Int(value.count_crtcs)).map { value.crtcs[$0] }
        encoders = (0..<Int(value.count_encoders)).compactMap { index in
            guard let encoder = drmModeGetEncoder(device.fd, value.encoders[index]) else { return nil }
            defer { drmModeFreeEncoder(encoder) }
            return EncoderInfo(
                id: encoder.pointee.encoder_id, crtcID: encoder.pointee.crtc_id,
                possibleCRTCs: encoder.pointee.possible_crtcs)
        }
        connectors = (0..<Int(value.count_connectors)).compactMap { index in
            guard let connector = drmModeGetConnector(device.fd, value.connectors[index]) else { return nil }
            defer { drmModeFreeConnector(connector) }
            return ConnectorInfo(connector, fd: device.fd)
        }
    }

    /// "HDMI-A-1 (connected), DSI-1 (disconnected)", for error messages.
    var connectorList: String {
        let shown = connectors.filter { !$0.isWriteback }
        return shown.isEmpty ? "none" : shown.map { "\($0.name) (\($0.status))" }.joined(separator: ", ")
    }
}

/// The connector, mode and CRTC Marquee drives.
struct DRMOutput {
    var connector: ConnectorInfo
    var mode: DisplayMode
    var crtcID: UInt32
    var crtcIndex: Int

    /// Chooses what `--connector` and `--mode` ask for, or the first connected connector and its
    /// preferred mode, on a CRTC outside `excluded` (the CRTCs the other outputs drive).
    static func choose(
        on devicePath: String, resources: DRMResources, connector name: String?, mode request: ModeRequest?,
        excluding excluded: Set<UInt32> = []
    ) throws(DisplayError) -> DRMOutput {
        try chooseAll(
            on: devicePath, resources: resources, requests: [DRMOutputRequest(connector: name, mode: request)],
            excluding: excluded)[0]
    }

    /// One output per request (`--connector` given more than once), each on a CRTC of its own.
    /// The CRTCs are matched together, not one after another: a connector whose encoders can use
    /// only one CRTC gets it even when it comes second and the first could use either.
    static func chooseAll(
        on devicePath: String, resources: DRMResources, requests: [DRMOutputRequest],
        excluding excluded: Set<UInt32> = []
    ) throws(DisplayError) -> [DRMOutput] {
        var chosen: [(ConnectorInfo, DisplayMode)] = []
        for request in requests {
            let connector = try chooseConnector(request.connector, on: devicePath, resources: resources)
            if chosen.contains(where: { $0.0.id == connector.id }) {
                throw DisplayError(.unsupportedRequest, "--connector \(connector.name) is given twice")
            }
            chosen.append((connector, try chooseMode(request.mode, of: connector)))
        }
        guard let crtcs = assignCRTCs(chosen.map(\.0), resources: resources, excluding: excluded) else {
            let names = chosen.map(\.0.name)
            if names.count == 1 {
                throw DisplayError(.backendUnavailable, "no CRTC of \(devicePath) can drive \(names[0])")
            }
            throw DisplayError(
                .backendUnavailable,
                "\(devicePath) has no CRTCs to drive \(names.joined(separator: " and ")) at once (it has \(resources.crtcIDs.count) CRTCs; their encoders cannot share them)"
            )
        }
        return zip(chosen, crtcs).map { pair, crtc in
            DRMOutput(connector: pair.0, mode: pair.1, crtcID: crtc.0, crtcIndex: crtc.1)
        }
    }

    /// The connector `name` asks for, or the first connected one.
    static func chooseConnector(
        _ name: String?, on devicePath: String, resources: DRMResources
    ) throws(DisplayError) -> ConnectorInfo {
        if let name {
            guard let named = resources.connectors.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw DisplayError(
                    .unsupportedRequest,
                    "\(devicePath) has no connector \(name); its connectors: \(resources.connectorList)")
            }
            guard named.isConnected, !named.modes.isEmpty else {
                throw DisplayError(
                    .noDisplay,
                    "connector \(named.name) of \(devicePath) has no display attached; its connectors: \(resources.connectorList)"
                )
            }
            return named
        }
        guard let first = resources.connectors.first(where: { $0.isConnected && !$0.isWriteback && !$0.modes.isEmpty })
        else {
            throw DisplayError(
                .noDisplay, "no display is connected to \(devicePath); its connectors: \(resources.connectorList)")
        }
        return first
    }
    static func chooseMode(_ request: ModeRequest?, of connector: ConnectorInfo) throws(DisplayError) -> DisplayMode {
        guard let request else {
            return connector.modes.first(where: \.isPreferred) ?? connector.modes[0]
        }
        let sized = connector.modes.filter { $0.width == request.width && $0.height == request.height }
        let chosen: DisplayMode?
        if let hz = request.refresh {
            chosen = sized.filter { abs($0.refreshRate - hz) < 0.5 }.min {
                abs($0.refreshRate - hz) < abs($1.refreshRate - hz)
            }
        } else {
            chosen = sized.first(where: \.isPreferred) ?? sized.max { $0.refreshRate < $1.refreshRate }
        }
        guard let chosen else {
            var seen = Set<String>()
            let list = connector.modes.map(\.description).filter { seen.insert($0).inserted }
            throw DisplayError(
                .unsupportedRequest,
                "\(connector.name) does not offer the mode \(request); it offers: \(list.joined(separator: ", "))")
        }
        return chosen
    }

    /// The CRTCs (id and index) each connector may use, best first: the one already driving it
    /// (no modeset away from what the console set up), then the ones its encoders can feed.
    static func candidateCRTCs(for connector: ConnectorInfo, resources: DRMResources) -> [(UInt32, Int)] {
        var candidates: [(UInt32, Int)] = []
        if let current = resources.encoders.first(where: { $0.id == connector.currentEncoderID }),
            current.crtcID != 0, let index = resources.crtcIDs.firstIndex(of: current.crtcID)
        {
            candidates.append((current.crtcID, index))
        }
        for encoderID in connector.encoderIDs {
            guard let encoder = resources.encoders.first(where: { $0.id == encoderID }) else { continue }
            for (index, crtc) in resources.crtcIDs.enumerated()
            where encoder.possibleCRTCs & (1 << UInt32(index)) != 0 && !candidates.contains(where: { $0.0 == crtc }) {
                candidates.append((crtc, index))
            }
        }
        return candidates
    }

    /// A distinct CRTC for each connector, outside `excluded`, preferring each one's best
    /// candidates in order; nil when there is no such assignment. A plain search: a card has a
    /// handful of CRTCs and Marquee drives a handful of outputs.
    static func assignCRTCs(
        _ connectors: [ConnectorInfo], resources: DRMResources, excluding excluded: Set<UInt32> = []
    ) -> [(UInt32, Int)]? {
        let candidates = connectors.map { candidateCRTCs(for: $0, resources: resources) }
        var taken = excluded
        var assigned: [(UInt32, Int)] = []
        func place(_ position: Int) -> Bool {
            guard position < candidates.count else { return true }
            for candidate in candidates[position] where !taken.contains(candidate.0) {
                taken.insert(candidate.0)
                assigned.append(candidate)
                if place(position + 1) { return true }
                assigned.removeLast()
                taken.remove(candidate.0)
            }
            return false
        }
        return place(0) ? assigned : nil
    }
}

/// An output asked for: `--connector` (nil: the first connected one) and its `--mode`.
public struct DRMOutputRequest: Sendable, Equatable {
    public var connector: String?
    public var mode: ModeRequest?
    /// `--rotate` for this output; nil: the panel's own orientation.
    public var rotation: Rotation?

    public init(connector: String?, mode: ModeRequest? = nil, rotation: Rotation? = nil) {
        self.connector = connector
        self.mode = mode
        self.rotation = rotation
    }
}
