import Glibc
import MarqueeCore

/// Writes the frame trace of SPEC §9: one JSON line per presented frame. Outside tools read these
/// field names; change them only with the SPEC.
final class TraceWriter {
    private let output: LineWriter
    private var json = JSONWriter(reservingCapacity: 4096)
    private let path: String
    /// Whether the failed write has been logged: once, not for every frame after it.
    private var failureReported = false

    init(path: String) throws(RuntimeError) {
        self.path = path
        // A FIFO is a fair place for a trace (a consumer reading it live), but a plain open of one
        // waits for a reader, possibly forever: O_NONBLOCK makes that an error (ENXIO) at start.
        // Writes are then blocking again, so every line reaches the reader whole; a reader that
        // stops reading slows the frames down, which is what a diagnosis tool may ask for.
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0o644)
        guard fd >= 0 else {
            let failure = Errno.current
            let reason = failure.rawValue == ENXIO ? "it is a FIFO that no program is reading" : failure.description
            throw RuntimeError("cannot open trace file \(path): \(reason)", cause: failure)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        output = LineWriter(fd: fd, flushThreshold: 256 * 1024, closesDescriptor: true)
    }

    /// `timestamp` and `target` are seconds since the first frame's timestamp.
    func write(frame: Int, timestamp: Double, target: Double, list: DisplayList, deck: Deck) {
        json.reset()
        json.beginObject()
        json.member("frame", frame)
        json.member("timestamp", timestamp)
        json.member("target", target)
        json.key("offset")
        json.beginArray()
        json.value(0)
        json.value(list.offset)
        json.endArray()
        json.key("percent")
        json.beginArray()
        json.value(0)
        json.value(list.percent)
        json.endArray()
        json.member("background", list.background.hexString)
        json.key("cards")
        json.beginArray()
        for item in list.items {
            json.beginObject()
            switch item.content {
            case .card(let card, let index, _, _):
                json.member("id", card.id)
                json.member("index", index)
            case .header(let section):
                json.member("header", section)
            case .leavingCard(let card, let index), .fadingRows(let card, let index, _):
                json.member("id", card.id)
                json.member("index", index)
                json.member("leaving", true)
            case .leavingHeader(_, let section):
                json.member("header", section)
                json.member("leaving", true)
            case .band(let card, let slot):
                json.member("id", card.id)
                json.member("overlay", slot)
            case .alert(let card, _):
                json.member("id", card.id)
                json.member("alert", true)
            }
            json.member("x", item.frame.x)
            json.member("y", item.frame.y)
            json.member("w", item.frame.width)
            json.member("h", item.frame.height)
            json.member("alpha", item.alpha)
            json.member("scale", item.scale)
            json.member("rotation", item.rotation)
            if let tint = item.tint { json.member("tint", tint.hexString) }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        output.writeLine(json.bytes)
        reportFailure()
    }

    func flush() {
        output.flush()
        reportFailure()
    }

    deinit { flush() }

    /// A write that failed (a full disk, `/dev/full`, a reader of a FIFO gone) ends the trace, which
    /// would otherwise be cut without a word: one line on stderr says where and why. The frames go
    /// on; only the trace stops.
    private func reportFailure() {
        guard !failureReported, !output.isOpen else { return }
        failureReported = true
        let reason = output.failure.map { $0.description } ?? "the write failed"
        Log.error("cannot write trace file \(path): \(reason); tracing stopped, frames go on")
    }
}
