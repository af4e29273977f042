import Glibc
import MarqueeCore

/// Reading image files so that no path a deck names can hang a worker or exhaust memory: the same
/// rules as the runtime's deck and font reading (`RegularFile` in MarqueeRuntime, which the
/// renderer cannot import). The path is looked at with `stat` first (a FIFO, a device, a socket or
/// a directory is refused without being opened), opened with `O_NONBLOCK` (a FIFO swapped in
/// meanwhile opens at once instead of waiting for a writer) and checked again with `fstat` on the
/// descriptor that is read. The size is capped before anything is allocated.
enum ImageFile {
    /// What identifies one version of a file: a failure is remembered for it, and an image cached
    /// from it is dropped by `ImageStore.reload()` once the file has changed.
    struct Identity: Hashable, Sendable {
        var device: UInt64 = 0
        var inode: UInt64 = 0
        var size: Int = 0
        var modified: Int = 0  // nanoseconds
        /// The errno of a failed `stat` (a missing file is a version of its own), else 0.
        var missing: Int32 = 0

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int(status.st_size)
            modified = Int(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(status.st_mtim.tv_nsec)
        }

        init(missing: Int32) { self.missing = missing }

        /// The identity of `path` now (one `stat`).
        static func of(_ path: String) -> Identity {
            var status = stat()
            return stat(path, &status) == 0 ? Identity(status) : Identity(missing: errno)
        }
    }

    /// The whole file, or an error; `identity` is that of the file actually read (or of the
    /// failed `stat`).
    static func read(_ path: String, maximumBytes: Int, within folders: [String]? = nil) -> (
        Result<[UInt8], ImageError>, Identity
    ) {
        let (opened, identity) = open(path, maximumBytes: maximumBytes, within: folders)
        let fd: Int32
        switch opened {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): return (.failure(error), identity)
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: identity.size)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                let failure = Errno.current
                if failure == .interrupted { continue }
                return (.failure(ImageError(failure.description)), identity)
            }
            if count == 0 { break }  // the file shrank while it was read: the decoder sees the end
            filled += count
        }
        if filled < bytes.count { bytes.removeLast(bytes.count - filled) }
        return (.success(bytes), identity)
    }

    /// A descriptor open for reading on a regular file within the cap (the caller closes it), or
    /// why not; `identity` is that of the file opened (or of the failed `stat`).
    static func open(_ path: String, maximumBytes: Int, within folders: [String]? = nil) -> (
        Result<Int32, ImageError>, Identity
    ) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = Errno.current
            return (.failure(ImageError(code.description)), Identity(missing: code.rawValue))
        }
        if let refusal = refusal(status, maximumBytes) { return (.failure(refusal), Identity(status)) }
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return (.failure(ImageError(Errno.current.description)), Identity(status)) }
        guard fstat(fd, &status) == 0 else {
            let failure = ImageError(Errno.current.description)
            close(fd)
            return (.failure(failure), Identity(status))
        }
        if let refusal = refusal(status, maximumBytes) ?? outside(fd, folders) {
            close(fd)
            return (.failure(refusal), Identity(status))
        }
        return (.success(fd), Identity(status))
    }

    /// Why the file open on `fd` may not be read: where the kernel says it is (its
    /// `/proc/self/fd` link, every symlink resolved as the open resolved them) is not inside one
    /// of `folders`. The path was checked before it was opened; a folder on it swapped for a
    /// symlink meanwhile would otherwise lead the read outside.
    private static func outside(_ fd: Int32, _ folders: [String]?) -> ImageError? {
        guard let folders else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        let opened = count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        guard !folders.contains(where: { $0 == "/" ? opened.hasPrefix("/") : opened.hasPrefix($0 + "/") }) else {
            return nil
        }
        return ImageError(
            "it was opened outside the folders pictures may be read from (--restrict-paths): a folder on its path was changed after it was checked"
        )
    }

    private static func refusal(_ status: stat, _ maximumBytes: Int) -> ImageError? {
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { return ImageError("it is \(describe(type)), not a regular file") }
        guard Int(status.st_size) <= maximumBytes else {
            return ImageError("it has \(status.st_size) bytes, more than the \(maximumBytes) an image file may have")
        }
        return nil
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a directory"
        default: "not a plain file"
        }
    }
}
