import CLinux
import Glibc

/// Switches the active virtual terminal to KD_GRAPHICS while Marquee draws on an fbdev panel, so
/// that the console neither draws text nor blinks its cursor over the picture, and back at exit.
final class ConsoleGraphicsMode {
    private var fd: Int32 = -1
    private var previousMode: Int32 = 0

    /// Tries `/dev/tty0` (the active VT); logs and carries on without it (over ssh as a user who
    /// may not open it, the console keeps drawing).
    init(log: (String) -> Void) {
        let descriptor = open("/dev/tty0", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            log(
                "fbdev: the console stays in text mode (cannot open /dev/tty0: \(String(cString: strerror(errno)))); its cursor may show over the picture"
            )
            return
        }
        var mode: Int32 = 0
        guard marquee_kd_get_mode(descriptor, &mode) == 0, marquee_kd_set_mode(descriptor, marquee_kd_graphics()) == 0
        else {
            log("fbdev: the console stays in text mode (KDSETMODE failed: \(String(cString: strerror(errno))))")
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
