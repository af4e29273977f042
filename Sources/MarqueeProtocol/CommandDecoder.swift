/// Bytes in, decoded lines out: splits the input stream into lines and parses each one. Pure and
/// incremental, so input may arrive a byte at a time or many lines per read.
///
/// A line longer than `maximumLineBytes` is not buffered whole: the decoder drops its bytes as
/// they come and answers one error for it when its end arrives.
public struct CommandDecoder: Sendable {
    public static let maximumLineBytes = 64 * 1024

    private var line: [UInt8] = []
    private var discardingLongLine = false
    /// The bytes of each line given out since the last `takeLineBytes()`, in order (what a
    /// discarded long line had counts as `maximumLineBytes`): a batch's cap counts them.
    private var lineBytes: [Int] = []

    public init() {}

    /// Feeds bytes; appends one `DecodedLine` per complete non-blank, non-comment line.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes, into output: inout [DecodedLine])
    where Bytes.Element == UInt8 {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                endLine(into: &output)
            } else if discardingLongLine {
                continue
            } else if line.count > Self.maximumLineBytes
                || (line.count == Self.maximumLineBytes && byte != UInt8(ascii: "\r"))
            {
                // The limit is on the line without its end: a "\r" before the "\n" is let in one
                // byte past it (a line that goes on after that "\r" is then over it).
                discardingLongLine = true
                line.removeAll(keepingCapacity: false)
            } else {
                line.append(byte)
            }
        }
    }

    /// Ends the input: a last line without a newline still counts.
    public mutating func finish(into output: inout [DecodedLine]) {
        if !line.isEmpty || discardingLongLine { endLine(into: &output) }
    }

    /// The byte counts of the lines given out since the last call, one per `DecodedLine`.
    public mutating func takeLineBytes() -> [Int] {
        defer { lineBytes.removeAll(keepingCapacity: true) }
        return lineBytes
    }

    private mutating func endLine(into output: inout [DecodedLine]) {
        defer { line.removeAll(keepingCapacity: line.count <= 4096) }
        if discardingLongLine {
            discardingLongLine = false
            output.append(.invalid("line longer than \(Self.maximumLineBytes) bytes; it was discarded"))
            lineBytes.append(Self.maximumLineBytes)
            return
        }
        if let decoded = Self.decode(line: line) {
            output.append(decoded)
            lineBytes.append(line.count)
        }
    }

    /// Decodes one line (without its newline); nil for blank lines and comments.
    public static func decode(line bytes: [UInt8]) -> DecodedLine? {
        var bytes = bytes[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        if bytes.contains(0) { return .invalid("line contains a NUL byte") }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .invalid("line is not valid UTF-8") }
        switch CommandParser.parse(text) {
        case .none: return nil
        case .some(.success(let command)): return .command(command)
        case .some(.failure(let error)): return .invalid(error.message)
        }
    }
}
