import Glibc
import MarqueeCore
import MarqueeProtocol

/// Control-socket clients coming and going, and the caps that keep one reader from holding up the
/// display or the others (docs/architecture.md, "Readers that do not keep up").
extension Session {
    /// Replies and events one client may leave unread before it is disconnected.
    static let clientCapacity = 1 << 20
    /// Replies standard output's reader may leave unread before Marquee stops writing to it.
    static let standardOutputCapacity = 16 << 20
    /// Standard input is not read while more than this waits for standard output's reader, so a
    /// script that writes faster than it reads is slowed by its pipe, not cut off.
    static let standardInputPauseBytes = 1 << 20
    /// The largest `--font` file accepted.
    static let fontMaximumBytes = 128 << 20

    /// Clients that have hung up and been answered, that went over their cap, or that are gone
    /// entirely (`isGone`) with a command held, are closed and forgotten.
    ///
    /// A client gone entirely is not waited for: its lines already read are carried out up to the
    /// first that holds (`wait`, `snapshot`, `load`, `apply`), which is then dropped with
    /// everything after it, so a `wait 86400` sent before a hang-up does not keep a slot of
    /// `--max-clients` and a descriptor for a day. A `load` or `apply` still being read is
    /// abandoned: its deck is not shown, and the next deck waiting is read once its thread ends.
    /// A client that only shut down its sending side still gets every reply.
    func dropFinishedClients() {
        var dropped = false
        sources.removeAll { source in
            guard source.isClient else { return false }
            if source.output.isOverCap {
                Log.error(
                    "\(source.name): disconnected: it left more than \(RegularFile.mebibytes(Self.clientCapacity)) of replies unread"
                )
            } else if !source.isFinished && !(source.isGone && source.hold != nil) {
                return false
            }
            switch source.hold {
            case .load(_, let load), .apply(_, let load): loader.done(load)
            default: break
            }
            source.hold = nil
            source.output.flush()
            close(source.inputDescriptor)
            for (tag, owner) in tagOwners where owner.source === source { tagOwners[tag] = nil }
            // Its playback goes on; its end is told to no one (the descriptor may be reused).
            if playbackOwner?.source === source { playbackOwner = nil }
            dropped = true
            return true
        }
        // A descriptor was freed: accepting may work again.
        if dropped { listenerPausedUntil = nil }
    }

    func acceptClients(_ socket: ControlSocket) {
        while true {
            let client: Int32
            switch socket.accept() {
            case .client(let fd): client = fd
            case .none: return
            case .outOfDescriptors(let reason):
                // The connection stays queued and the listener readable: polling it now would spin.
                Log.error(
                    "control socket: cannot accept a client (\(reason)); trying again when a client leaves or in 1 s")
                listenerPausedUntil = Self.monotonicNow() + 1
                return
            }
            // A client gone entirely is dropped in this pass or the next (once its lines read
            // are carried out): it holds no place.
            let clients = sources.reduce(0) { $0 + ($1.isClient && !$1.isGone ? 1 : 0) }
            guard clients < options.maxClients else {
                refuse(client, "too many clients (\(options.maxClients))")
                continue
            }
            sources.append(
                CommandSource(
                    name: "control client \(client)", input: client,
                    output: OutputQueue(fd: client, mode: .socket, capacity: Self.clientCapacity),
                    isClient: true))
        }
    }

    /// Answers a connection that will not be served with one error line (if the socket takes it
    /// at once) and closes it.
    private func refuse(_ client: Int32, _ message: String) {
        json.reset()
        json.beginObject()
        json.member("ok", false)
        json.member("error", message)
        json.endObject()
        var line = json.bytes
        line.append(UInt8(ascii: "\n"))
        _ = line.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
        close(client)
    }

    /// At the end of a run (`quit`, the end of input): waits until standard output's reader has
    /// taken the last replies, the reader goes away, it takes nothing for 5 s, or a signal comes.
    func drainStandardOutput() {
        let output = standardInput.output
        var lastProgress = Self.monotonicNow()
        var pending = output.pendingBytes
        while output.wantsWritable && Self.monotonicNow() - lastProgress < 5 {
            var waits = [
                pollfd(fd: output.fd, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0),
            ]
            _ = SystemCall.poll(&waits, timeoutMilliseconds: 1000)
            if waits[1].revents != 0 { return }
            output.flush()
            if output.pendingBytes != pending {
                pending = output.pendingBytes
                lastProgress = Self.monotonicNow()
            }
        }
    }

    /// `--font`: a regular file within the cap, checked before FreeType opens it by path (a FIFO
    /// there would block FreeType's `fopen` forever).
    static func checkFontFile(_ path: String?) throws(RuntimeError) {
        guard let path else { return }
        try RegularFile.check(path, what: "font", maximumBytes: fontMaximumBytes)
    }

    /// Refuses a deck whose template elements name a font that cannot be opened, in the words a
    /// style's font is refused with (and the element's path), so the shown deck stays. With
    /// `--font PATH` every element draws with that file: nothing to check.
    static func checkElementFonts(_ deck: Deck, fontPath: String?) throws(RuntimeError) {
        guard fontPath == nil,
            let problem = FontCheck.elementProblems(in: deck.templates, bodyFont: deck.style.bodyFont).first
        else { return }
        throw RuntimeError("\(problem.path): \(problem.message)")
    }

    static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
