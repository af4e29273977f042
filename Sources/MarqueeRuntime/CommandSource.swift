import Glibc
import MarqueeCore
import MarqueeProtocol

/// One place commands come from: standard input, or a client of the control socket. Each has its
/// own decoder, queue, `seq` numbering, held command, open batch and replies, so two controllers
/// never see each other's sequence numbers.
final class CommandSource {
    /// A command that holds this source's queue until its condition is met.
    enum Hold {
        case seconds(seq: Int, deadline: Double)
        case idle(seq: Int)
        case snapshot(seq: Int, path: String)
        /// A `load` whose deck is being read on its own thread (`DeckLoader`).
        case load(seq: Int, DeckLoad)
        /// An `apply` whose deck is being read or decoded on its own thread.
        case apply(seq: Int, DeckLoad)
    }

    let name: String
    let inputDescriptor: Int32
    let output: OutputQueue
    /// A socket client: a line cut off by a disconnect is dropped, not run.
    let isClient: Bool
    var decoder = CommandDecoder()
    var queue: [(seq: Int, line: DecodedLine, bytes: Int)] = []
    var queueHead = 0
    var nextSeq = 1
    var hold: Hold?
    /// Between `batch` and `commit`: the edits collected (with their seq), and the first problem
    /// found in the batch, which makes the commit fail.
    var openBatch: OpenBatch?
    private(set) var isReading = true
    /// A client whose socket reported POLLHUP or POLLERR: its peer closed the connection (a peer
    /// that only shut down its sending side, as `marquee send` does, gives end of input, not this).
    var peerHungUp = false

    /// A client gone entirely: hung up, or a reply could not be written (EPIPE, ECONNRESET). Its
    /// lines already read are carried out, but nothing it sent is waited for (Session+Clients).
    var isGone: Bool { isClient && (peerHungUp || (!output.isOpen && !output.isOverCap)) }

    init(name: String, input: Int32, output: OutputQueue, isClient: Bool) {
        self.name = name
        self.inputDescriptor = input
        self.output = output
        self.isClient = isClient
    }

    var pendingCount: Int { queue.count - queueHead }
    /// The estimated memory of the lines read but not yet carried out (`estimatedBytes`).
    private(set) var pendingBytes = 0

    /// Lines waiting behind a held command are bounded by their decoded size as well as by their
    /// count: 4,096 `update` lines of 56 KB behind one `wait 30` took 451 MB before. While a
    /// source holds this much, or all sources together `sharedMaximumPendingBytes`, it is not read
    /// and its writer waits on the pipe or socket; nothing is dropped. A source with nothing
    /// pending is always read, so one client's backlog never stops another's commands.
    static let maximumPendingBytes = 8 << 20
    static let sharedMaximumPendingBytes = 64 << 20

    /// Whether the session should read more from this source, given what all sources hold.
    func wantsInput(allPendingBytes: Int) -> Bool {
        guard isReading, pendingCount < 4096 else { return false }
        return pendingCount == 0
            || (pendingBytes < Self.maximumPendingBytes && allPendingBytes < Self.sharedMaximumPendingBytes)
    }

    /// A queued line's memory once decoded: a command as a batch counts its edits, a refused line
    /// its text and its message.
    static func estimatedBytes(_ line: DecodedLine, lineBytes: Int) -> Int {
        switch line {
        case .command(let command): OpenBatch.estimatedBytes(command, lineBytes: lineBytes)
        case .invalid(let message): lineBytes + message.utf8.count + OpenBatch.bytesPerEdit
        }
    }

    /// True when nothing more will come from this source and everything it sent is answered.
    var isFinished: Bool { !isReading && pendingCount == 0 && hold == nil }

    /// Reads what is available and queues the decoded lines.
    func read(into buffer: inout [UInt8], scratch: inout [DecodedLine]) {
        let count = buffer.withUnsafeMutableBytes { SystemCall.read(inputDescriptor, into: $0) }
        let failure = count < 0 ? Errno.current : nil
        scratch.removeAll(keepingCapacity: true)
        if count > 0 {
            decoder.feed(buffer[..<count], into: &scratch)
        } else if count == 0 || (failure != .wouldBlock && failure != .tryAgain) {
            if let failure, failure != .connectionReset {
                Log.error("\(name): reading commands failed: \(failure); no more commands are read from it")
            }
            // From stdin a last line without a newline still counts; a client that goes away
            // mid-line changes nothing.
            if !isClient { decoder.finish(into: &scratch) }
            isReading = false
        }
        for (line, bytes) in zip(scratch, decoder.takeLineBytes()) {
            queue.append((nextSeq, line, bytes))
            pendingBytes += Self.estimatedBytes(line, lineBytes: bytes)
            nextSeq += 1
        }
    }

    func next() -> (seq: Int, line: DecodedLine, bytes: Int)? {
        // A client over its output cap is being disconnected: nothing more of its is carried out.
        guard queueHead < queue.count, !output.isOverCap else {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            pendingBytes = 0
            return nil
        }
        let entry = queue[queueHead]
        queueHead += 1
        pendingBytes -= Self.estimatedBytes(entry.line, lineBytes: entry.bytes)
        dropConsumedEntries()
        return entry
    }

    /// Frees the entries already carried out. The queue is consumed from `queueHead`; when a feed
    /// writes faster than `wait` commands let the queue drain, it is never empty when `next` is
    /// called, so without this the consumed entries piled up for good (the soak's slow RSS climb:
    /// 26 MB of queue after 100,000 commands).
    private func dropConsumedEntries() {
        if queueHead == queue.count {
            // A burst's capacity is kept only while it is small.
            queue.removeAll(keepingCapacity: queue.capacity <= Self.keptCapacity)
            queueHead = 0
        } else if queueHead >= Self.keptCapacity / 4, queueHead * 2 >= queue.count {
            // At least as many consumed entries as pending ones: moving the pending ones is paid
            // for by the consumed ones, so each entry is moved a constant number of times.
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }

    static let keptCapacity = 8192

    /// Entries held in memory, carried out or not: bounded by twice the pending ones (plus a
    /// constant) whatever the pattern of reads and holds.
    var storedCount: Int { queue.count }

    func reply(ok seq: Int, json: inout JSONWriter) {
        json.reset()
        Messages.ok(seq: seq, into: &json)
        output.writeLine(json.bytes)
    }

    func reply(error message: String, seq: Int, json: inout JSONWriter) {
        json.reset()
        Messages.error(seq: seq, message: message, into: &json)
        output.writeLine(json.bytes)
    }
}

/// Between `batch` and `commit`: the edits kept (with their seq), what they cost in memory, and
/// the first problem found, which makes the commit fail.
///
/// A batch is held in memory until its commit, so it has a cap: a controller that never commits
/// (a bug, a feed cut off mid-batch) must not grow the process without bound. Past the cap the
/// edits are dropped at once and the batch is discarded: it stays open so that the edits after
/// the cap are not applied one by one out of their batch, each is answered with an error, and
/// `commit` ends it, applying nothing.
///
/// The cap is on the edits as decoded, not on their lines: a `fields` object decodes to about
/// eight times its line (a dictionary entry of two strings per `"k":1,`), so a cap on line bytes
/// let one batch of 64 MiB of lines take 560 MB. All the open batches of a session also share one
/// budget, so that 64 clients each holding a batch cannot hold 64 caps.
struct OpenBatch {
    /// More edits than a deck-sized change needs: `apply` or `load` a whole state instead.
    static let maximumEdits = 100_000
    /// The estimated memory of one batch's edits (`estimatedBytes`).
    static let maximumBytes = 128 << 20
    /// The estimated memory of all the open batches of a session together.
    static let sharedMaximumBytes = 256 << 20
    /// What a kept edit costs besides its text: the `Command` in the array, the card or patch
    /// struct, its string headers.
    static let bytesPerEdit = 256
    /// What one entry of a `fields` object costs besides its text: a dictionary bucket of two
    /// strings (32 bytes), the slack of the table's load factor and power-of-two growth, and the
    /// heap block of a key or value too long to be stored inline.
    static let bytesPerField = 128

    var edits: [(seq: Int, command: Command)] = []
    /// This batch's share of the session's budget, given back when the batch ends (committed,
    /// discarded, or its client gone): the charge is released when the last copy is dropped.
    private let charge: BatchCharge
    var bytes: Int { charge.bytes }
    var problem: String?
    /// The line whose edit went over the cap, once it did, and that cap in words.
    var discardedAt: Int?
    var discardedCap = Self.capText

    init(budget: BatchBudget) { charge = BatchCharge(budget) }

    /// Keeps an edit; false (and the batch discarded) when it goes over the cap.
    mutating func keep(_ command: Command, seq: Int, bytes lineBytes: Int) -> Bool {
        guard discardedAt == nil else { return false }
        let cost = Self.estimatedBytes(command, lineBytes: lineBytes)
        let overShared = charge.budget.heldBytes + cost > Self.sharedMaximumBytes
        guard edits.count < Self.maximumEdits, charge.bytes + cost <= Self.maximumBytes, !overShared else {
            discardedAt = seq
            edits = []
            charge.release()
            discardedCap = overShared ? Self.sharedCapText : Self.capText
            // The first problem is the one the commit names (an invalid line before the cap).
            if problem == nil {
                problem = "line \(seq): the batch went over its cap (\(discardedCap)) and was discarded"
            }
            return false
        }
        edits.append((seq, command))
        charge.add(cost)
        return true
    }

    /// An edit's memory once decoded: its line's bytes (the strings it holds) plus a cost per edit
    /// and per `fields` entry. Taken from the command, not the line, so it is true whatever the line's
    /// layout (whitespace, escapes, short keys).
    static func estimatedBytes(_ command: Command, lineBytes: Int) -> Int {
        switch command {
        case .insert(_, let card), .replace(_, let card):
            return lineBytes + bytesPerEdit + card.fields.count * bytesPerField
        case .update(_, let patch):
            return lineBytes + bytesPerEdit + patch.fields.count * bytesPerField
        case .insertSection(_, let section):
            // A section's cards are held compactly (CardList): about their text again, per card.
            return 2 * lineBytes + bytesPerEdit * (1 + section.cards.count)
        default:
            return lineBytes + bytesPerEdit
        }
    }

    static var capText: String { "100,000 edits or \(maximumBytes >> 20) MiB of decoded edits" }
    static var sharedCapText: String {
        "\(sharedMaximumBytes >> 20) MiB of decoded edits in all the open batches together"
    }
}

/// The memory held by a session's open batches, all sources together.
final class BatchBudget {
    fileprivate(set) var heldBytes = 0
}

/// One open batch's part of a `BatchBudget`; given back on release or when dropped.
private final class BatchCharge {
    let budget: BatchBudget
    private(set) var bytes = 0

    init(_ budget: BatchBudget) { self.budget = budget }

    func add(_ cost: Int) {
        bytes += cost
        budget.heldBytes += cost
    }

    func release() {
        budget.heldBytes -= bytes
        bytes = 0
    }

    deinit { release() }
}
