import Glibc
import MarqueeCore

/// Reads deck files from disk and decodes them, with errors that name the file.
public enum DeckFile {
    /// Decks larger than this are refused before reading. A million cards take about 108 MB; the
    /// cap leaves room for twice that and longer texts, and keeps a mistaken path (a disk image, a
    /// log) from costing the kiosk its memory.
    public static let maximumBytes = 256 << 20

    /// Reads and decodes; the error is one line naming the first problem (with its JSON path) and
    /// how many more there are, since it becomes a protocol reply (`marquee check-deck` lists them).
    public static func load(_ path: String) throws(RuntimeError) -> Deck {
        switch try stream(path) {
        case .success(let deck): return deck
        case .failure(let error): throw RuntimeError("deck \(path) is invalid: \(error.summary)")
        }
    }

    /// Decodes the file as it is read, a megabyte at a time, so that neither the file nor a tree
    /// of it is held whole (a million-card deck is 150 MB of JSON). Errors reading the file are
    /// thrown; problems of the deck are the result's failure.
    public static func stream(_ path: String, maximumBytes: Int = maximumBytes) throws(RuntimeError)
        -> Result<Deck, DeckError>
    {
        let (fd, _) = try RegularFile.open(path, what: "deck", maximumBytes: maximumBytes)
        defer { close(fd) }
        let failure = ReadFailure()
        let result: Result<Deck, DeckError>
        do {
            result = .success(
                try DeckDecoder.decode(source: { buffer in
                    let count = SystemCall.read(fd, into: buffer)
                    if count < 0 {
                        failure.reason = Errno.current.description
                        return 0
                    }
                    failure.total += count
                    if failure.total > maximumBytes {
                        failure.reason =
                            "it grew past the \(RegularFile.mebibytes(maximumBytes)) a deck file may have while it was read"
                        return 0
                    }
                    return count
                }))
        } catch {
            result = .failure(error)
        }
        // A file that could not be read to its end is not judged by what was read of it.
        if let reason = failure.reason { throw RuntimeError("cannot read deck \(path): \(reason)") }
        return result
    }

    /// Why reading stopped early, noted by the reader's source (which cannot throw this error).
    private final class ReadFailure {
        var reason: String?
        var total = 0
    }

    /// A deck given as JSON text (`apply {...}`); the error calls it "the deck".
    static func decode(text: String) throws(RuntimeError) -> Deck {
        do {
            return try DeckDecoder.decode(text: text)
        } catch {
            throw RuntimeError("the deck is invalid: \(error.summary)")
        }
    }
}
