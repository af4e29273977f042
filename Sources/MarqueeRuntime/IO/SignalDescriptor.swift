import CLinux
import Glibc
import MarqueeCore

/// SIGINT, SIGTERM and SIGHUP delivered as a readable descriptor (`signalfd`), so that the one
/// `poll()` loop sees them like input and exits cleanly between frames, never inside one.
final class SignalDescriptor {
    let fd: Int32
    private var previousMask = sigset_t()

    init() throws(RuntimeError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, &previousMask) == 0 else {
            throw RuntimeError(Errno.current, "cannot block signals")
        }
        let fd = signalfd(-1, &mask, marquee_signalfd_flags())
        guard fd >= 0 else { throw RuntimeError(Errno.current, "signalfd failed") }
        self.fd = fd
    }

    deinit {
        close(fd)
        pthread_sigmask(SIG_SETMASK, &previousMask, nil)
    }

    /// The signals waiting, in order.
    func read() -> [Int32] {
        var signals: [Int32] = []
        var info = signalfd_siginfo()
        while true {
            let count = withUnsafeMutableBytes(of: &info) { SystemCall.read(fd, into: $0) }
            guard count == MemoryLayout<signalfd_siginfo>.size else { return signals }
            signals.append(Int32(info.ssi_signo))
        }
    }
}
