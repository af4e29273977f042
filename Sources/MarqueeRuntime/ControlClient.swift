import Glibc
import MarqueeCore
import MarqueeProtocol

/// `marquee send`: a client of the control socket for scripts and bridges (a feed piped in), so
/// they need no socat, and so that no command is lost without a word when Marquee restarts.
///
/// Every line sent that Marquee answers (all but blank lines and comments) is kept until its
/// reply comes. If the connection ends first, `send` fails (exit status 2) naming how many were
/// not answered; with `reconnect` it waits for the socket (at start too) and sends those lines
/// again, in order, before any new one. A command whose reply was lost may have been applied, so
/// it may be applied twice: at least once, never silently dropped.
///
/// A Marquee serving `--max-clients` already answers a new connection with one error line that
/// has no `seq` (`{"ok":false,"error":"too many clients (64)"}`) and closes it: that refusal is
/// the answer to the connection, not to a line, so every line stays unanswered. Without
/// `reconnect` it fails with exit status 2 ("marquee refused the connection: too many clients
/// (64)"); with it, `send` tries again with the same backoff as for a missing socket.
public enum ControlClient {
    /// The socket `marquee send` uses when none is given: `$MARQUEE_SOCKET`, else the path the
    /// deployment files use. Set but empty counts as unset, as the shell's `${VAR:-default}` does
    /// (`MARQUEE_SOCKET= marquee send ...` in a script that blanks it).
    public static var defaultSocketPath: String {
        guard let value = getenv("MARQUEE_SOCKET"), value.pointee != 0 else { return "/run/marquee/control.sock" }
        return String(cString: value)
    }

    /// Sends `commands` (or, when there are none, every line of standard input as it comes),
    /// prints each reply and each event that arrives before the last reply on standard output
    /// (Marquee closes the connection once every line is answered), and returns 1 if any reply was an error,
    /// else 0. Without `reconnect`, throws when the socket cannot be reached or the connection is
    /// lost with lines not answered (or with standard input still open).
    public static func send(socket path: String, commands: [String], reconnect: Bool = false)
        throws(RuntimeError) -> Int32
    {
        signal(SIGPIPE, SIG_IGN)
        var session = ClientSession(readsInput: commands.isEmpty)
        for command in commands { session.add(line: Array((command + "\n").utf8)) }
        var retryDelay = 0.1
        var waiting = false
        /// The refusal that began the current run of refused connections (logged once).
        var refusedWith: String?
        while true {
            let fd: Int32
            do {
                fd = try ControlSocket.connect(to: path)
            } catch {
                guard reconnect else { throw error }
                if !waiting { Log.info("\(error.message); waiting for it") }
                waiting = true
                refusedWith = nil
                // Marquee is starting or restarting: keep trying, a little less often each time,
                // up to every 2 s.
                session.sleepReadingInput(seconds: retryDelay)
                retryDelay = min(retryDelay * 2, 2)
                continue
            }
            if waiting {
                let connected =
                    "\(path): connected; sending the \(session.unansweredCount) line(s) not answered yet first"
                // After a refusal, whether this connection is served shows only by its first
                // reply (or another refusal): said then, not on every try.
                if refusedWith == nil { Log.info(connected) } else { session.servedMessage = connected }
            }
            waiting = false
            let outcome = session.run(on: fd)
            close(fd)
            switch outcome {
            case .finished:
                return session.sawError ? 1 : 0
            case .refused(let message):
                guard reconnect else {
                    throw RuntimeError(
                        "\(path): marquee refused the connection: \(message) (with --reconnect, send tries again until it is served)"
                    )
                }
                if refusedWith != message {
                    Log.info(
                        "\(path): marquee refused the connection: \(message); trying again, less often each time up to every 2 s"
                    )
                }
                refusedWith = message
                waiting = true
                // Every line is still unanswered. Another client has to leave first: wait as for
                // a missing socket, not at once (which would spin as fast as Marquee refuses).
                session.sleepReadingInput(seconds: retryDelay)
                retryDelay = min(retryDelay * 2, 2)
            case .lost:
                refusedWith = nil
                retryDelay = 0.1
                let unanswered = session.unansweredCount
                let what =
                    unanswered > 0
                    ? "\(unanswered) line\(unanswered == 1 ? "" : "s") not answered"
                    : "standard input still open"
                guard reconnect else {
                    throw RuntimeError(
                        "\(path): the connection closed with \(what) (is Marquee still running? With --reconnect, send waits for it and sends again what was not answered)"
                    )
                }
                Log.info("\(path): the connection closed with \(what); waiting for the socket to come back")
                waiting = true
            }
        }
    }
}

/// The lines of one `marquee send`, across connections: what is waiting for a reply, what is
/// still to come from standard input, and the replies printed so far.
private struct ClientSession {
    enum Outcome {
        /// Everything was answered and there is nothing more to send.
        case finished
        /// The connection ended (or failed) before that.
        case lost
        /// Marquee answered the connection itself with an error line without `seq` (too many
        /// clients) and closed it: no line was answered.
        case refused(String)
    }

    private(set) var readsInput: Bool
    private(set) var sawError = false
    /// Logged when the next reply comes (the connection is served, after refusals).
    var servedMessage: String?
    /// The error of a refusal read on this connection (a line with "ok" and no "seq").
    private var refusal: String?
    /// Lines sent (or to send) that Marquee answers, oldest first, until their replies arrive.
    private var unanswered: [[UInt8]] = []
    private var firstUnanswered = 0
    private var partialInput: [UInt8] = []
    private var inputBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(readsInput: Bool) { self.readsInput = readsInput }

    var unansweredCount: Int { unanswered.count - firstUnanswered }

    /// Queues a line (with its newline) if Marquee will answer it: blank lines and comments get
    /// no reply, so waiting for one would never end.
    mutating func add(line: [UInt8]) {
        let body = Array(line.dropLast())
        guard body.count > CommandDecoder.maximumLineBytes || CommandDecoder.decode(line: body) != nil else { return }
        unanswered.append(line)
    }

    /// Lines sent on this connection whose replies have not come yet. Bounded by
    /// `maximumInFlight`, and every reply available is read before more is written, so Marquee
    /// never holds more than a few hundred KiB of replies and events for `send` (it disconnects a
    /// client that leaves 1 MiB unread), however fast and long the input is.
    private var inFlight = 0
    /// Replies are one short line (an error at most 2 KiB), events a few hundred bytes: 128 lines
    /// in flight keep what Marquee queues for `send` far below its 1 MiB cap, and are plenty to keep
    /// it busy (it answers a line in microseconds).
    static let maximumInFlight = 128
    /// Standard input is not read while this many lines wait to be sent, so a fast feed is held
    /// back by its pipe instead of filling memory.
    static let maximumWaiting = 4096

    /// Sends every unanswered line, then relays standard input and prints replies until all is
    /// answered or the connection ends. The socket is non-blocking: a write takes what the socket
    /// has room for, and replies are read whenever they come, never left unread while `send` writes.
    mutating func run(on fd: Int32) -> Outcome {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        inFlight = 0
        refusal = nil
        var outgoing: [UInt8] = []
        var outgoingOffset = 0
        var shutDown = false
        var replies: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // Lines go out as replies make room for them, oldest first.
            while outgoingOffset == outgoing.count, inFlight < Self.maximumInFlight,
                firstUnanswered + inFlight < unanswered.count
            {
                outgoing.removeAll(keepingCapacity: true)
                outgoingOffset = 0
                while inFlight < Self.maximumInFlight, firstUnanswered + inFlight < unanswered.count,
                    outgoing.count < 64 * 1024
                {
                    outgoing += unanswered[firstUnanswered + inFlight]
                    inFlight += 1
                }
            }
            let allSent = outgoingOffset == outgoing.count && firstUnanswered + inFlight == unanswered.count
            if !readsInput, allSent, !shutDown {
                shutdown(fd, Int32(SHUT_WR))
                shutDown = true
            }
            let waiting = unanswered.count - firstUnanswered - inFlight
            var descriptors = [
                pollfd(fd: fd, events: Int16(POLLIN | (outgoingOffset < outgoing.count ? POLLOUT : 0)), revents: 0)
            ]
            if readsInput && waiting < Self.maximumWaiting {
                descriptors.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0))
            }
            _ = SystemCall.poll(&descriptors, timeoutMilliseconds: -1)
            // Replies first: everything the socket has, before anything more is written.
            if descriptors[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                if let ended = readReplies(fd, into: &replies, buffer: &buffer) { return ended }
            }
            if descriptors.count > 1, descriptors[1].revents != 0 { readInput() }
            if outgoingOffset < outgoing.count, descriptors[0].revents & Int16(POLLOUT) != 0 {
                let written = outgoing.withUnsafeBytes {
                    Glibc.write(fd, $0.baseAddress! + outgoingOffset, $0.count - outgoingOffset)
                }
                if written > 0 {
                    outgoingOffset += written
                } else if written < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                    // Marquee closed the connection: what it wrote before (a refusal, the last
                    // replies) is still there to read, and says why.
                    var rest = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
                    _ = SystemCall.poll(&rest, timeoutMilliseconds: 0)
                    return readReplies(fd, into: &replies, buffer: &buffer) ?? refusal.map { .refused($0) } ?? .lost
                }
            }
        }
    }

    /// Reads what the socket has and prints the whole lines; the outcome when the connection
    /// has ended, else nil.
    private mutating func readReplies(_ fd: Int32, into replies: inout [UInt8], buffer: inout [UInt8]) -> Outcome? {
        while true {
            let count = buffer.withUnsafeMutableBytes { SystemCall.read(fd, into: $0) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            if count <= 0 {
                printReplies(&replies)
                if let refusal { return .refused(refusal) }
                return unansweredCount == 0 && !readsInput ? .finished : .lost
            }
            replies += buffer[..<count]
            if count < buffer.count { break }
        }
        printReplies(&replies)
        return nil
    }

    /// Waits `seconds` between attempts to connect, still taking lines from standard input (so
    /// a feed is not held up and its lines are sent once Marquee is back).
    mutating func sleepReadingInput(seconds: Double) {
        var descriptors = [pollfd(fd: 0, events: Int16(readsInput ? POLLIN : 0), revents: 0)]
        _ = SystemCall.poll(&descriptors, timeoutMilliseconds: Int32(seconds * 1000))
        if readsInput, descriptors[0].revents != 0 { readInput() }
    }

    /// Takes what standard input has: whole lines are queued; at its end, a last line without a
    /// newline counts too (as Marquee counts it).
    private mutating func readInput() {
        let count = inputBuffer.withUnsafeMutableBytes { SystemCall.read(0, into: $0) }
        if count <= 0 {
            readsInput = false
            if !partialInput.isEmpty { add(line: partialInput + [UInt8(ascii: "\n")]) }
            partialInput = []
            return
        }
        partialInput += inputBuffer[..<count]
        while let newline = partialInput.firstIndex(of: UInt8(ascii: "\n")) {
            add(line: Array(partialInput[...newline]))
            partialInput.removeSubrange(...newline)
        }
    }

    /// Prints each whole line; a reply (it has "ok" and "seq") answers the oldest unanswered
    /// line. A line with "ok" but no "seq" answers the connection, not a line: Marquee refused it
    /// (too many clients) and closes it; it is kept as `refusal`, not printed. The printed lines
    /// go to standard output in one write.
    private mutating func printReplies(_ pending: inout [UInt8]) {
        var start = 0
        var printed: [UInt8] = []
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let reply = try? JSONParser.parse(Array(pending[start..<newline]))
            if let reply, reply["ok"] != nil, reply["seq"] == nil {
                if case .string(let error) = reply["error"] { refusal = error } else { refusal = "no reason given" }
                start = newline + 1
                continue
            }
            printed += pending[start...newline]
            if let ok = reply?["ok"] {
                if let servedMessage {
                    Log.info(servedMessage)
                    self.servedMessage = nil
                }
                if case .bool(false) = ok { sawError = true }
                if firstUnanswered < unanswered.count { firstUnanswered += 1 }
                if inFlight > 0 { inFlight -= 1 }
                if firstUnanswered > 4096 {
                    unanswered.removeFirst(firstUnanswered)
                    firstUnanswered = 0
                }
            }
            start = newline + 1
        }
        if !printed.isEmpty { printed.withUnsafeBytes { _ = SystemCall.writeAll(1, $0) } }
        pending.removeSubrange(..<start)
    }
}
