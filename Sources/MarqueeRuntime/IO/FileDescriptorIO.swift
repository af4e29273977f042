import Glibc
import MarqueeCore

/// The runtime's reads, writes and polls, with EINTR retried here (beside `SystemCall.run`).
extension SystemCall {
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let result = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Writes all of `bytes`; returns false when the reader is gone (EPIPE), the fd failed, or a
    /// non-blocking reader has not taken anything for `patienceMilliseconds` (a controller that
    /// stops reading must not stall the display).
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, patienceMilliseconds: Int32 = 2000) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let result = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    guard Glibc.poll(&descriptor, 1, patienceMilliseconds) > 0 else { return false }
                    continue
                }
                return false
            }
            offset += result
        }
        return true
    }

    static func poll(_ descriptors: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
        while true {
            let result = descriptors.withUnsafeMutableBufferPointer {
                Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
            }
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

/// A buffered writer of lines to a file descriptor (stdout, the trace file). Lines are flushed
/// when the buffer fills and whenever the loop is about to sleep, so a reader sees every reply
/// before Marquee waits for more input.
final class LineWriter {
    let fd: Int32
    private var buffer: [UInt8] = []
    private let flushThreshold: Int
    /// False once a write failed (for stdout: the reader went away); later lines are dropped.
    private(set) var isOpen = true
    /// Why the write failed (ENOSPC for a full disk, EPIPE for a reader gone; ETIMEDOUT for a
    /// non-blocking reader that took nothing for too long), once `isOpen` is false.
    private(set) var failure: Errno?
    private let closesDescriptor: Bool

    init(fd: Int32, flushThreshold: Int = 64 * 1024, closesDescriptor: Bool = false) {
        self.fd = fd
        self.flushThreshold = flushThreshold
        self.closesDescriptor = closesDescriptor
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    deinit {
        flush()
        if closesDescriptor { close(fd) }
    }

    func writeLine(_ bytes: [UInt8]) {
        guard isOpen else { return }
        buffer.append(contentsOf: bytes)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= flushThreshold { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if isOpen {
            errno = 0
            isOpen = buffer.withUnsafeBytes { SystemCall.writeAll(fd, $0) }
            if !isOpen { failure = errno != 0 ? Errno.current : Errno(rawValue: ETIMEDOUT) }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Log lines on stderr, prefixed so they stand out from a script's own output.
/// A message is one line whatever it quotes: its control characters are written as JSON escapes
/// (a picture's path holding a line feed could otherwise print a line of its own, one that looks
/// like Marquee's).
public enum Log {
    public static func info(_ message: String) { write("marquee: \(oneLine(message))\n") }
    public static func error(_ message: String) { write("marquee: error: \(oneLine(message))\n") }

    static func oneLine(_ message: String) -> String {
        guard message.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return message }
        return MessageText.clipped(message, limit: .max)
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { _ = SystemCall.writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
