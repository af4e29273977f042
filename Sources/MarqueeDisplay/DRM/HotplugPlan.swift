/// What a probe after a hotplug event means for the output Marquee drives, from plain values (the
/// connectors as the kernel now lists them), so the tests need no device.
enum HotplugStep: Equatable {
    /// The connector driven until now has no display any more.
    case disconnect
    /// Set this output's mode and show frames on it (a display came, or came back with another
    /// preferred mode, or another connector got one).
    case connect(connector: String, mode: String, crtcID: UInt32)
}

enum HotplugPlan {
    /// The output to drive now: `--connector` when given; else the connector driven last, while
    /// it has a display; else the first connected one; on a CRTC outside `excluded` (the other
    /// outputs'). Nil (with the reason) when none can be.
    static func wantedOutput(
        devicePath: String, resources: DRMResources, connector request: String?, mode: ModeRequest?,
        lastConnector: String?, excluding excluded: Set<UInt32> = []
    ) -> Result<DRMOutput, DisplayError> {
        var name = request
        if name == nil, let last = lastConnector,
            resources.connectors.contains(where: { $0.name == last && $0.isConnected && !$0.modes.isEmpty })
        {
            name = last
        }
        do {
            return .success(
                try DRMOutput.choose(
                    on: devicePath, resources: resources, connector: name, mode: mode, excluding: excluded))
        } catch {
            return .failure(error)
        }
    }

    /// The steps from `current` (nil: nothing shown) to `wanted`.
    static func steps(current: DRMOutput?, wanted: DRMOutput?) -> [HotplugStep] {
        var steps: [HotplugStep] = []
        if let current {
            if let wanted, wanted.connector.id == current.connector.id, wanted.crtcID == current.crtcID,
                sameMode(wanted.mode, current.mode)
            {
                return []
            }
            steps.append(.disconnect)
        }
        if let wanted {
            steps.append(.connect(connector: wanted.connector.name, mode: wanted.mode.name, crtcID: wanted.crtcID))
        }
        return steps
    }

    static func sameMode(_ a: DisplayMode, _ b: DisplayMode) -> Bool {
        a.width == b.width && a.height == b.height && a.info.clock == b.info.clock && a.info.htotal == b.info.htotal
            && a.info.vtotal == b.info.vtotal && a.info.flags == b.info.flags
    }
}
