import Glibc
import MarqueeCore

/// Reads deck files from disk and decodes them, with errors that name the file.
public enum DeckFile {
    /// Decks larger than this are refused before reading (a million cards take about 100 MB).
    public static let maximumBytes = 1 << 30

    public static func read(_ path: String) throws(RuntimeError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw RuntimeError("cannot read deck \(path): \(SystemCall.errorText)") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw RuntimeError("cannot read deck \(path): \(SystemCall.errorText)") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw RuntimeError("cannot read deck \(path): not a regular file")
        }
        guard status.st_size <= maximumBytes else {
            throw RuntimeError("deck \(path) is larger than \(maximumBytes >> 20) MiB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if count < 0 { throw RuntimeError("cannot read deck \(path): \(SystemCall.errorText)") }
            if count == 0 { break }
            filled += count
        }
        if filled < bytes.count { bytes.removeLast(bytes.count - filled) }
        return bytes
    }

    /// Reads and decodes; the error is one line naming the first problem (with its JSON path) and
    /// how many more there are, since it becomes a protocol reply (`marquee check-deck` lists them).
    public static func load(_ path: String) throws(RuntimeError) -> Deck {
        let bytes = try read(path)
        do {
            return try DeckDecoder.decode(bytes: bytes)
        } catch {
            throw RuntimeError("deck \(path) is invalid: \(error.summary)")
        }
    }
}
