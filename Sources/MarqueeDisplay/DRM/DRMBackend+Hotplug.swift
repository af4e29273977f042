import MarqueeCore

/// Displays plugged in and out while Marquee runs (a TV switched off at night and on in the
/// morning, a cable pulled and pushed back).
///
/// On a change uevent of the card the connectors are probed again and `HotplugPlan` says what to
/// do. The connector driven loses its display: the display link is paused (no frames, no vblank
/// requests, no wake-ups; time goes on), the CRTC is turned off, and nothing else changes: no
/// error, no exit. A display comes (back): its mode is set (`--mode`, else its preferred mode,
/// which a different TV may not share), the buffers are made again when the size changed (the
/// session lays the deck out for the new size as a `load` would), and the next frame, the scene as
/// it is then, is drawn for its first vblank.
extension DRMBackend: DisplayHotplug {
    public var hotplugDescriptor: Int32? { monitor?.fd }

    public func takeDisplayChanges() -> [DisplayChange] {
        guard let monitor, monitor.takeCardChanges() else { return [] }
        return probeDisplays()
    }

    public func probeDisplays() -> [DisplayChange] {
        let resources: DRMResources
        do {
            resources = try DRMResources(device)
        } catch {
            log("drm: probing the connectors after a hotplug event failed: \(error.message)")
            return []
        }
        let wanted = HotplugPlan.wantedOutput(
            devicePath: device.path, resources: resources, connector: options.connector, mode: options.mode,
            lastConnector: output.connector.name, excluding: card.crtcs(besides: self))
        let target: DRMOutput?
        switch wanted {
        case .success(let chosen): target = chosen
        case .failure(let error):
            target = nil
            // No display is the usual case; anything else (a new TV without the --mode asked for)
            // is worth saying.
            if error.code != .noDisplay || isConnected { log("drm: \(error.message)") }
        }
        var changes: [DisplayChange] = []
        for step in HotplugPlan.steps(current: isConnected ? output : nil, wanted: target) {
            switch step {
            case .disconnect:
                disconnect()
                changes.append(DisplayChange(connector: output.connector.name, state: .disconnected))
            case .connect:
                guard let target, let change = connect(target) else { continue }
                changes.append(change)
            }
        }
        return changes
    }

    /// Stops showing frames on the connector that lost its display.
    private func disconnect() {
        if isShowing {
            link.pause()
            do {
                try modesetter.turnOff()
            } catch {
                log("drm: turning off CRTC \(output.crtcID) after the display went away: \(error.message)")
            }
            link.drainEvents()
        }
        isConnected = false
        log("drm: \(output.connector.name) disconnected; drawing nothing until a display is connected")
    }

    /// Sets `target`'s mode and shows frames on it; nil (logged) when the driver refuses.
    private func connect(_ target: DRMOutput) -> DisplayChange? {
        let previousSize = size
        let panel = PixelSize(width: target.mode.width, height: target.mode.height)
        do {
            let modesetter: DRMModesetter =
                usesAtomic
                ? (try? AtomicModesetter(device: device, output: target, rotation: rotation, turnsInPlane: planeMayTurn))
                    ?? LegacyModesetter(device: device, output: target)
                : LegacyModesetter(device: device, output: target)
            // Buffers that hold frames turned the other way (the new output's plane turns them
            // and the old one's did not, or the reverse) are made anew, so every row is drawn.
            let turnChanged = modesetter.planeRotation != self.modesetter.planeRotation
            if buffers[0].width != panel.width || buffers[0].height != panel.height || turnChanged {
                try makeBuffers(panel: panel, for: target)
            }
            output = target
            self.modesetter = modesetter
            if isPoweredOn && isSeatActive {
                try setModeAgain()
            }
        } catch {
            log("drm: \(target.connector.name) is connected but cannot be shown: \(error.message)")
            return nil
        }
        isConnected = true
        card.claim(target.crtcID, by: self)
        if isPoweredOn && isSeatActive {
            link.resume(crtcIndex: target.crtcIndex, pacing: Self.pacing(for: target.mode, options))
        }
        log("drm: \(target.connector.name) connected; \(target.mode.description), CRTC \(target.crtcID)")
        return DisplayChange(
            connector: target.connector.name, state: .connected, mode: target.mode.name,
            resized: size == previousSize ? nil : size)
    }

    /// Two dumb buffers and the shadow frame for a panel of another size; the old ones are let go.
    private func makeBuffers(panel: PixelSize, for target: DRMOutput) throws(DisplayError) {
        let made = try [0, 1].map { _ throws(DisplayError) in
            try DumbBuffer(device: device, width: panel.width, height: panel.height)
        }
        made[0].fill(0xFF00_0000)
        buffers = made
        front = 0
        size = rotation.logicalSize(ofPanel: panel)
        shadow = PixelBuffer(width: size.width, height: size.height)
        rows = ScanoutRows(rows: size.height, buffers: 2)
        hasPresented = false
        if options.writebackSnapshots { writeback = WritebackCapture(device: device, output: target, log: log) }
    }
}
