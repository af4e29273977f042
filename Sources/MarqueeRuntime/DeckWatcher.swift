import CLinux
import Glibc
import MarqueeCore

/// `--watch`: tells the run loop when the deck file may have changed, through inotify.
///
/// The directory is watched, not the file: editors often save by writing a new file and
/// renaming it over the old one, which leaves a watch on the old file's inode looking at a file
/// no one will change again. A change to any entry of the directory named like the deck counts.
/// The descriptor is non-blocking and goes into the loop's `poll()` set.
final class DeckWatcher {
    let fd: Int32
    private let fileName: String
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    init(path: String) throws(RuntimeError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        fileName = slash.map { String(path[path.index(after: $0)...]) } ?? path
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw RuntimeError(Errno.current, "--watch: inotify is not available") }
        // Written and closed, renamed or linked into place, or created (then written): each may
        // be the last step of a save.
        let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB)
        guard inotify_add_watch(fd, directory, events) >= 0 else {
            let reason = Errno.current
            close(fd)
            throw RuntimeError("--watch: cannot watch the directory \(directory): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Reads every queued event; true when one of them names the deck file.
    func takeChanges() -> Bool {
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return changed }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let base = bytes.baseAddress! + offset
                    let nameLength = Int(base.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
                    let nameStart = base + MemoryLayout<inotify_event>.size
                    // The name is padded with NULs to its length.
                    let name = String(
                        decoding: UnsafeRawBufferPointer(start: nameStart, count: nameLength).prefix { $0 != 0 },
                        as: UTF8.self)
                    if name == fileName { changed = true }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                }
            }
        }
    }
}
