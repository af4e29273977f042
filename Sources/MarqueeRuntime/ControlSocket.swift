import Glibc
import MarqueeCore

/// The listening Unix socket of `run --control-socket PATH`: mode 0660 (owner and group), removed
/// at exit. A stale socket file left by a crash is replaced; a live one (another Marquee listening)
/// or any other kind of file at PATH is an error, never deleted.
final class ControlSocket {
    let path: String
    let fd: Int32

    init(path: String) throws(RuntimeError) {
        let bytes = Array(path.utf8)
        var probe = sockaddr_un()
        guard bytes.count < MemoryLayout.size(ofValue: probe.sun_path) else {
            throw RuntimeError("--control-socket \(path): the path is too long for a Unix socket (at most 107 bytes)")
        }
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFSOCK else {
                throw RuntimeError("--control-socket \(path): a file that is not a socket is in the way")
            }
            if Self.connects(path) {
                throw RuntimeError(
                    "--control-socket \(path): another program is listening there (is Marquee already running?)")
            }
            unlink(path)
        }
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw RuntimeError(Errno.current, "--control-socket \(path)") }
        Self.fill(&probe, bytes)
        let bound = withUnsafePointer(to: &probe) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(path, 0o660) == 0, listen(fd, 16) == 0 else {
            let reason = Errno.current
            close(fd)
            throw RuntimeError("--control-socket \(path): \(reason)")
        }
        self.path = path
        self.fd = fd
    }

    deinit {
        close(fd)
        unlink(path)
    }

    enum Accepted {
        case client(Int32)
        /// No descriptor is left for it (EMFILE, ENFILE, or no memory for one): the connection
        /// stays queued, so the listener stays readable.
        case outOfDescriptors(String)
        /// No connection is waiting (or it went away before it was taken).
        case none
    }

    /// A new client, non-blocking and close-on-exec.
    func accept() -> Accepted {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                return .client(client)
            }
            let failure = Errno.current
            switch failure.rawValue {
            case EINTR, ECONNABORTED: continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors(failure.description)
            default: return .none
            }
        }
    }

    static func fill(_ address: inout sockaddr_un, _ bytes: [UInt8]) {
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
    }

    /// Connects to `path` (for `marquee send`, and to tell a live socket from a stale one).
    static func connect(to path: String) throws(RuntimeError) -> Int32 {
        let bytes = Array(path.utf8)
        var address = sockaddr_un()
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw RuntimeError("\(path): the path is too long for a Unix socket")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw RuntimeError(Errno.current, "\(path)") }
        fill(&address, bytes)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = Errno.current
            close(fd)
            throw RuntimeError(
                "cannot connect to \(path): \(reason) (is marquee run --control-socket \(path) running?)")
        }
        return fd
    }

    private static func connects(_ path: String) -> Bool {
        guard let fd = try? connect(to: path) else { return false }
        close(fd)
        return true
    }
}
