import Glibc
import MarqueeCore

/// Opening the files Marquee reads (decks, the `--font` file), so that no path a controller or an
/// operator names can hang the renderer or exhaust its memory.
///
/// A plain `open(O_RDONLY)` of a FIFO waits until a writer appears, possibly forever; reading a
/// character device (`/dev/zero`) never ends; opening some devices has side effects. So a path is
/// first looked at with `stat` (a device or socket is refused without being opened), then opened
/// with `O_NONBLOCK` (a FIFO swapped in meanwhile opens at once instead of waiting) and checked
/// again with `fstat` on the descriptor itself, which is what is read.
enum RegularFile {
    /// `what` names the file in errors ("deck", "font"); `maximumBytes` is its cap, named in the
    /// error when a file is larger.
    static func read(_ path: String, what: String, maximumBytes: Int) throws(RuntimeError) -> [UInt8] {
        let (fd, size) = try open(path, what: what, maximumBytes: maximumBytes)
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if count < 0 { throw RuntimeError(Errno.current, "cannot read \(what) \(path)") }
            if count == 0 { break }  // the file shrank while it was read: what is there is read
            filled += count
        }
        if filled < bytes.count { bytes.removeLast(bytes.count - filled) }
        return bytes
    }

    /// Checks, without reading it, that `path` can be opened as a regular file within the cap (for
    /// files another library opens by path, such as FreeType's fonts).
    static func check(_ path: String, what: String, maximumBytes: Int) throws(RuntimeError) {
        close(try open(path, what: what, maximumBytes: maximumBytes).fd)
    }

    /// A descriptor open for reading (`O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY`) and the
    /// file's size, or an error naming what the path is when it is not a regular file.
    static func open(_ path: String, what: String, maximumBytes: Int) throws(RuntimeError) -> (fd: Int32, size: Int) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw RuntimeError(Errno.current, "cannot read \(what) \(path)")
        }
        try checkKind(status, path, what, maximumBytes)
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw RuntimeError(Errno.current, "cannot read \(what) \(path)") }
        guard fstat(fd, &status) == 0 else {
            let reason = Errno.current
            close(fd)
            throw RuntimeError("cannot read \(what) \(path): \(reason)")
        }
        do {
            try checkKind(status, path, what, maximumBytes)
        } catch {
            close(fd)
            throw error
        }
        return (fd, Int(status.st_size))
    }

    private static func checkKind(
        _ status: stat, _ path: String, _ what: String, _ maximumBytes: Int
    ) throws(RuntimeError) {
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw RuntimeError("cannot read \(what) \(path): it is \(describe(type)), not a regular file")
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw RuntimeError(
                "cannot read \(what) \(path): it is \(mebibytes(Int(status.st_size))), more than the \(mebibytes(maximumBytes)) a \(what) file may have"
            )
        }
    }

    /// What a file of type `type` (`st_mode & S_IFMT`) is, in words.
    static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "not a plain file"
        }
    }

    /// Sizes in errors: whole MiB where exact, else with one decimal.
    static func mebibytes(_ bytes: Int) -> String {
        if bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
