import MarqueeCore

/// Reads deck files from disk and decodes them, with errors that name the file.
public enum DeckFile {
    /// Decks larger than this are refused before reading. A million cards take about 108 MB; the
    /// cap leaves room for twice that and longer texts, and keeps a mistaken path (a disk image, a
    /// log) from costing the kiosk its memory.
    public static let maximumBytes = 256 << 20

    /// The file's bytes: only a regular file within the cap, opened without blocking
    /// (`RegularFile`), so a FIFO or a device is an error, never a hang.
    public static func read(_ path: String, maximumBytes: Int = maximumBytes) throws(RuntimeError) -> [UInt8] {
        try RegularFile.read(path, what: "deck", maximumBytes: maximumBytes)
    }

    /// Reads and decodes; the error is one line naming the first problem (with its JSON path) and
    /// how many more there are, since it becomes a protocol reply (`marquee check-deck` lists them).
    public static func load(_ path: String) throws(RuntimeError) -> Deck {
        try decode(try read(path), path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws(RuntimeError) -> Deck {
        do {
            return try DeckDecoder.decode(bytes: bytes)
        } catch {
            throw RuntimeError("deck \(path) is invalid: \(error.summary)")
        }
    }

    /// A deck given as JSON text (`apply {...}`); the error calls it "the deck".
    static func decode(text: String) throws(RuntimeError) -> Deck {
        do {
            return try DeckDecoder.decode(bytes: Array(text.utf8))
        } catch {
            throw RuntimeError("the deck is invalid: \(error.summary)")
        }
    }
}
