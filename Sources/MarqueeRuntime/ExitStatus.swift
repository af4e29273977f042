import MarqueeDisplay

/// The exit status of `marquee run` after a failure, by its cause, so that a service manager, a
/// fleet's monitoring or an install script can tell a mistake in the settings (which will fail
/// the same way every time) from a display that is not there yet or is busy (which may work at
/// the next start). The values are those of BSD's `sysexits.h`, which other daemons use too, and
/// 64 is what the argument parser already gives for a bad flag.
public enum ExitStatus {
    /// Anything else: a deck, font or path that cannot be used, a failure while running.
    public static let failure: Int32 = 1
    /// EX_USAGE: a flag that cannot work with the rest (`RuntimeError.isUsage`).
    public static let usage: Int32 = 64
    /// EX_UNAVAILABLE: the backend is not on this machine (no DRM or fbdev device, no SDL2, no
    /// desktop session for the window).
    public static let unavailable: Int32 = 69
    /// EX_OSERR: a system call failed (a modeset, mapping a buffer, a page flip).
    public static let systemError: Int32 = 71
    /// EX_TEMPFAIL: no display is connected, or another program holds the display: starting
    /// again later may work.
    public static let temporary: Int32 = 75
    /// EX_NOPERM: the user may not open the display device.
    public static let permission: Int32 = 77
    /// EX_CONFIG: `--mode`, `--connector`, `--rotate` or another display setting names what the
    /// device does not offer.
    public static let configuration: Int32 = 78

    /// The status for `error`: the display's code when a display failure is behind it, else 1.
    public static func of(_ error: RuntimeError) -> Int32 {
        if error.isUsage { return usage }
        guard let display = error.display else { return failure }
        switch display.code {
        case .backendUnavailable: return unavailable
        case .systemCall: return systemError
        case .noDisplay, .deviceBusy: return temporary
        case .permissionDenied: return permission
        case .invalidConfiguration, .unsupportedRequest: return configuration
        }
    }
}
