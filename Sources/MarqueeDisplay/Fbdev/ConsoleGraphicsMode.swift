import CLinux
import Glibc
import MarqueeCore

/// Switches the active virtual terminal to KD_GRAPHICS while Marquee draws on an fbdev panel, so
/// that the console neither draws text nor blinks its cursor over the picture, and back at exit.
final class ConsoleGraphicsMode {
    private var fd: Int32 = -1
    private var previousMode: Int32 = 0

    /// Tries `/dev/tty0` (the active VT); logs and carries on without it (over ssh as a user who
    /// may not open it, the console keeps drawing).
    init(log: (String) -> Void) {
        let descriptor: Int32
        switch SystemCall.run({ open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY) }) {
        case .success(let opened): descriptor = opened
        case .failure(let code):
            log(
                "fbdev: the console stays in text mode (cannot open /dev/tty0: \(code)); its cursor may show over the picture"
            )
            return
        }
        var mode: Int32 = 0
        let switched = SystemCall.run { marquee_kd_get_mode(descriptor, &mode) }.flatMap { _ in
            SystemCall.run { marquee_kd_set_mode(descriptor, marquee_kd_graphics()) }
        }
        if case .failure(let code) = switched {
            log("fbdev: the console stays in text mode (KDSETMODE failed: \(code))")
            close(descriptor)
            return
        }
        fd = descriptor
        previousMode = mode
        log("fbdev: console switched to graphics mode (cursor hidden) until exit")
    }

    /// Back to the mode found at start (text, normally: the console redraws itself).
    func restore() {
        guard fd >= 0 else { return }
        _ = marquee_kd_set_mode(fd, previousMode)
        close(fd)
        fd = -1
    }

    deinit { restore() }
}
