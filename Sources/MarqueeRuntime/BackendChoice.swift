import Glibc
import MarqueeDisplay

/// Opens the backend `--backend` names; `auto` tries DRM, then fbdev, then software (SPEC §7),
/// saying on stderr why each one before the chosen was passed over.
enum BackendChoice {
    static func open(_ options: RunOptions) throws(RuntimeError) -> DisplayBackend {
        switch options.backend {
        case .software:
            return software(options)
        case .drm:
            do { return try DRMBackend(options: drmOptions(options), log: Log.info) } catch {
                throw RuntimeError(error)
            }
        case .fbdev:
            do { return try fbdev(options, path: options.devicePath ?? "/dev/fb0") } catch {
                throw RuntimeError(error)
            }
        case .window:
            let title =
                "marquee: " + (options.deckPath.map { String($0.split(separator: "/").last ?? "") } ?? "demo deck")
            do { return try WindowBackend(size: options.size, title: title, log: Log.info) } catch {
                throw RuntimeError(error)
            }
        case .auto where options.seat:
            // A seat hands out DRM devices: fbdev or memory would not be what --seat asked for.
            do { return try DRMBackend(options: drmOptions(options), log: Log.info) } catch {
                throw RuntimeError(error)
            }
        case .auto:
            // Never the window: a kiosk without a display server must not pop up a desktop preview.
            return automatic(options)
        }
    }

    /// Every output asked for: the backend `open` gives, or with `--connector` given more than
    /// once, one DRM output per connector (the first is the one `open` would give).
    static func openOutputs(_ options: RunOptions) throws(RuntimeError) -> [DisplayBackend] {
        guard !options.furtherOutputs.isEmpty else { return [try open(options)] }
        // Connectors are DRM's: `auto` cannot fall back to a framebuffer for several of them.
        do {
            let outputs = try DRMBackend.openOutputs(options: drmOptions(options), log: Log.info)
            if options.backend == .auto { Log.info("backend auto: using drm (\(outputs.count) outputs)") }
            return outputs
        } catch {
            throw RuntimeError(error)
        }
    }

    private static func automatic(_ options: RunOptions) -> DisplayBackend {
        let framebufferNamed = options.devicePath.map { $0.contains("/fb") } ?? false
        if !framebufferNamed {
            do {
                let backend = try DRMBackend(options: drmOptions(options), log: Log.info)
                Log.info("backend auto: using drm")
                return backend
            } catch {
                Log.info("backend auto: not drm: \(error.message)")
            }
        } else {
            Log.info("backend auto: not drm: --device names a framebuffer device")
        }
        let framebuffer = framebufferNamed ? options.devicePath! : "/dev/fb0"
        if access(framebuffer, F_OK) == 0 {
            do {
                let backend = try fbdev(options, path: framebuffer)
                Log.info("backend auto: using fbdev")
                return backend
            } catch {
                Log.info("backend auto: not fbdev: \(error.message)")
            }
        } else {
            Log.info("backend auto: not fbdev: there is no \(framebuffer)")
        }
        Log.info(
            "backend auto: using software (\(options.size), \(Session.format(options.refreshRate)) Hz, in memory)")
        return software(options)
    }

    private static func software(_ options: RunOptions) -> DisplayBackend {
        SoftwareBackend(
            size: options.size, refreshRate: options.refreshRate, realtime: options.realtime,
            maximumFramesPerSecond: options.maximumFramesPerSecond, rotation: options.rotation)
    }

    private static func fbdev(_ options: RunOptions, path: String) throws(DisplayError) -> DisplayBackend {
        try FbdevBackend(
            devicePath: path, rotation: options.rotation, maximumFramesPerSecond: options.maximumFramesPerSecond,
            log: Log.info)
    }

    private static func drmOptions(_ options: RunOptions) -> DRMOptions {
        var drm = DRMOptions()
        drm.devicePath = options.devicePath
        drm.connector = options.connector
        drm.mode = options.mode
        drm.furtherOutputs = options.furtherOutputs
        drm.rotation = options.rotationIsExplicit ? options.rotation : nil
        drm.waitForDisplay = options.waitForDisplay
        drm.seat = options.seat
        drm.forceLegacy = options.forceLegacyModesetting
        drm.maximumFramesPerSecond = options.maximumFramesPerSecond
        drm.writebackSnapshots = options.writebackSnapshots
        return drm
    }
}
