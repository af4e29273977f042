import Glibc
import MarqueeCore

/// Replies and events waiting for one reader (standard output or a control-socket client),
/// written only as fast as that reader takes them: the run loop never waits for a reader.
///
/// Lines are queued; `flush()` writes what the descriptor takes now without blocking, and the
/// loop asks `poll()` for POLLOUT while anything is left (`wantsWritable`). A reader that lets
/// more than `capacity` bytes pile up is over its cap (`isOverCap`): the session then disconnects
/// a client, or stops writing to standard output, and logs why. Lines are never dropped while the
/// queue is open.
final class OutputQueue {
    /// How writes reach the descriptor without blocking.
    enum Mode {
        /// `send(MSG_DONTWAIT)`: a socket (a control client, or stdout given as one by systemd).
        case socket
        /// A descriptor of Marquee's own with `O_NONBLOCK` (stdout reopened, see `standardOutput`).
        case nonblocking
        /// Plain writes: a regular file or a device that never holds a writer up (`/dev/null`).
        case blocking
    }

    let fd: Int32
    let mode: Mode
    let capacity: Int
    /// Lines waiting, from `head` on (the written prefix is dropped when it grows large).
    private var buffer: [UInt8] = []
    private var head = 0
    private let flushThreshold = 16 * 1024
    private let closesDescriptor: Bool
    /// False once a write failed (the reader went away) or the queue went over its cap.
    private(set) var isOpen = true
    private(set) var isOverCap = false
    /// Where lines go instead of a descriptor (`--mqtt`: each line is one publication, a reply's
    /// or an event's), with no queue here: the publisher caps what it holds.
    private let publisher: ((_ line: [UInt8], _ event: Bool) -> Void)?

    init(fd: Int32, mode: Mode, capacity: Int, closesDescriptor: Bool = false) {
        self.fd = fd
        self.mode = mode
        self.capacity = capacity
        self.closesDescriptor = closesDescriptor
        self.publisher = nil
    }

    init(publisher: @escaping (_ line: [UInt8], _ event: Bool) -> Void) {
        fd = -1
        mode = .blocking
        capacity = 0
        closesDescriptor = false
        self.publisher = publisher
    }

    deinit {
        if closesDescriptor { close(fd) }
    }

    var pendingBytes: Int { buffer.count - head }

    /// Whether the loop should wait for this descriptor to become writable.
    var wantsWritable: Bool { isOpen && pendingBytes > 0 && mode != .blocking }

    /// `event`: the line is an event, not a reply (only a publisher tells them apart).
    func writeLine(_ bytes: [UInt8], event: Bool = false) {
        guard isOpen else { return }
        if let publisher {
            publisher(bytes, event)
            return
        }
        buffer.append(contentsOf: bytes)
        buffer.append(UInt8(ascii: "\n"))
        if pendingBytes > capacity {
            isOverCap = true
            isOpen = false
            buffer.removeAll()
            head = 0
            return
        }
        if pendingBytes >= flushThreshold { flush() }
    }

    /// Writes as much as the descriptor takes now; never waits (except in `.blocking` mode, for a
    /// file or a device that does not make writers wait).
    func flush() {
        while isOpen && pendingBytes > 0 {
            let written = buffer.withUnsafeBytes { bytes -> Int in
                let start = bytes.baseAddress! + head
                switch mode {
                case .socket: return send(fd, start, pendingBytes, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
                case .nonblocking, .blocking: return write(fd, start, pendingBytes)
                }
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                isOpen = false  // EPIPE and the like: the reader is gone
                break
            }
            head += written
        }
        if head == buffer.count || !isOpen {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            head = 0
        } else if head >= 64 * 1024 {
            buffer.removeFirst(head)
            head = 0
        }
    }

    /// Standard output as a queue with `capacity`. A pipe or a terminal is reopened through
    /// `/proc/self/fd` with `O_NONBLOCK` on a file description of Marquee's own: setting the flag
    /// on the inherited descriptor would change it for every process sharing it (the shell's
    /// terminal). A socket is written with `MSG_DONTWAIT`; a regular file or `/dev/null` plainly.
    static func standardOutput(_ fd: Int32, capacity: Int) -> OutputQueue {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return OutputQueue(fd: fd, mode: .blocking, capacity: capacity) }
        let type = status.st_mode & S_IFMT
        if type == S_IFSOCK { return OutputQueue(fd: fd, mode: .socket, capacity: capacity) }
        guard type == S_IFIFO || isatty(fd) != 0 else {
            return OutputQueue(fd: fd, mode: .blocking, capacity: capacity)
        }
        let append = fcntl(fd, F_GETFL) & O_APPEND
        let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | append)
        guard own >= 0 else {
            let failure = Errno.current
            // No /proc, or the pipe's reader is already gone (ENXIO): plain writes, which then
            // fail with EPIPE rather than wait.
            Log.info("stdout: cannot reopen it without blocking (\(failure)); writing it plainly")
            return OutputQueue(fd: fd, mode: .blocking, capacity: capacity)
        }
        return OutputQueue(fd: own, mode: .nonblocking, capacity: capacity, closesDescriptor: true)
    }
}
