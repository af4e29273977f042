import Glibc
import MarqueeCore

/// `marquee send`: a client of the control socket for scripts, so they need no socat.
public enum ControlClient {
    /// The socket `marquee send` uses when none is given: `$MARQUEE_SOCKET`, else the path the
    /// deployment files use.
    public static var defaultSocketPath: String {
        getenv("MARQUEE_SOCKET").map { String(cString: $0) } ?? "/run/marquee/control.sock"
    }

    /// Sends `commands` (or, when there are none, every line of standard input as it comes),
    /// prints each reply and event on standard output, and returns 1 if any reply was an error,
    /// else 0. The connection ends when Marquee has answered everything that was sent.
    public static func send(socket path: String, commands: [String]) throws(RuntimeError) -> Int32 {
        let fd = try ControlSocket.connect(to: path)
        defer { close(fd) }
        signal(SIGPIPE, SIG_IGN)
        var sawError = false
        var pending: [UInt8] = []
        func printReplies(_ bytes: ArraySlice<UInt8>) {
            pending += bytes
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if case .some(.bool(false)) = (try? JSONParser.parse(line))?["ok"] { sawError = true }
                line.withUnsafeBytes { _ = SystemCall.writeAll(1, $0) }
                _ = [UInt8(ascii: "\n")].withUnsafeBytes { SystemCall.writeAll(1, $0) }
            }
        }
        var sending = commands.isEmpty
        if !commands.isEmpty {
            let text = commands.map { $0 + "\n" }.joined()
            guard Array(text.utf8).withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) else {
                throw RuntimeError("\(path): the connection closed while sending")
            }
            shutdown(fd, Int32(SHUT_WR))
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if sending { descriptors.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            _ = SystemCall.poll(&descriptors, timeoutMilliseconds: -1)
            if sending, descriptors[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { SystemCall.read(0, into: $0) }
                if count > 0 {
                    guard
                        buffer.withUnsafeBytes({
                            SystemCall.writeAll(fd, UnsafeRawBufferPointer(rebasing: $0[..<count]))
                        })
                    else {
                        throw RuntimeError("\(path): the connection closed while sending")
                    }
                } else {
                    sending = false
                    shutdown(fd, Int32(SHUT_WR))
                }
            }
            if descriptors[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { SystemCall.read(fd, into: $0) }
                if count <= 0 { break }
                printReplies(buffer[..<count])
            }
        }
        return sawError ? 1 : 0
    }
}
