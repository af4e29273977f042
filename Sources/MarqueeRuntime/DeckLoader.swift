import Glibc
import MarqueeCore

/// Reads and decodes decks on a thread of their own, so that a `load` (or a SIGHUP reload) of a
/// large deck never stops the run loop: frames are presented and other sources served meanwhile,
/// and SIGTERM ends Marquee at once (the thread is detached and simply dies with the process).
///
/// One deck at a time, for the whole session: every `load`, `apply` and reload, from any source,
/// is queued here in the order it came, and the next is started only once the session is done
/// with the one before (shown, refused, or abandoned by a client that went away). So the memory
/// of loads is one deck being read plus the deck shown, however many controllers load at once
/// (8 clients loading a 19.6 MB deck of 300,000 sections each took 1.96 GB and 11 threads when
/// each load had a thread of its own), and finished decks are never installed back to back on the
/// frame thread.
///
/// A finished load writes a byte to a pipe the run loop polls; the loop then picks up the result
/// it is waiting for (`DeckLoad.result`) and applies it on its own thread, where the renderer and
/// the scene live, and calls `done` and `startNext`.
final class DeckLoader {
    /// Readable when a load has finished since the last `drain()`.
    var fd: Int32 { wakeUp.readEnd }
    private let wakeUp: WakeUpPipe
    /// Loads asked for and not started yet, oldest first.
    private var waiting: [DeckLoad] = []
    /// The load started last, until the session is done with it (and, if it was abandoned, until
    /// its thread has finished): no other starts meanwhile.
    private var active: DeckLoad?

    init() throws(RuntimeError) {
        wakeUp = try WakeUpPipe()
    }

    /// Queues reading `path` (already checked against `--restrict-paths`). `findsDifference`
    /// (`apply`): the thread also finds the difference from the deck shown when it starts.
    func queue(_ path: String, findsDifference: Bool = false) -> DeckLoad {
        queue(DeckLoad(path: path, findsDifference: findsDifference))
    }

    /// Queues decoding a deck given as JSON text (`apply {...}`), with its difference.
    func queue(text: String) -> DeckLoad {
        queue(DeckLoad(text: text, findsDifference: true))
    }

    private func queue(_ load: DeckLoad) -> DeckLoad {
        waiting.append(load)
        return load
    }

    /// Starts the oldest waiting load when no other is being read or waiting to be shown;
    /// `shown` gives the deck shown now (and its version) for a load that finds a difference.
    func startNext(shown: () -> (deck: Deck, version: Int)) {
        if let active, active.isAbandoned, active.result != nil { self.active = nil }
        guard active == nil, !waiting.isEmpty else { return }
        let load = waiting.removeFirst()
        active = load
        if load.findsDifference { load.base = shown() }
        let job = Unmanaged.passRetained(LoadJob(load: load, wakeUp: wakeUp)).toOpaque()
        var thread = pthread_t()
        // The thread inherits the loop's signal mask, so SIGINT, SIGTERM and SIGHUP still go only
        // to the signalfd.
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<LoadJob>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, job)
        guard status == 0 else {
            Unmanaged<LoadJob>.fromOpaque(job).release()
            // Answered as the load's own failure, through the pipe like a finished load.
            load.finish(.failure(RuntimeError(Errno(rawValue: status), "cannot start a thread to read \(load.path)")))
            var byte: UInt8 = 1
            _ = write(wakeUp.writeEnd, &byte, 1)
            return
        }
        pthread_detach(thread)
    }

    /// The session is done with `load`: shown or refused, or no longer wanted (its client went
    /// away). A waiting load is forgotten; one still being read is abandoned (its deck is never
    /// shown), and the next starts when its thread has finished, so two decks are never read at
    /// once.
    func done(_ load: DeckLoad) {
        if let index = waiting.firstIndex(where: { $0 === load }) {
            waiting.remove(at: index)
        } else if active === load {
            if load.result != nil { active = nil } else { load.isAbandoned = true }
        }
    }

    /// Empties the pipe after the loop saw it readable.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ SystemCall.read(wakeUp.readEnd, into: $0) }) > 0 {}
    }
}

/// One deck being read; `result` is nil until its thread has finished.
final class DeckLoad: Sendable {
    /// The file, or a name for messages when the deck came as text.
    let path: String
    /// The deck's JSON when it came on the command line.
    let text: String?
    /// For `apply`: the thread also finds the difference from the deck shown when it starts.
    let findsDifference: Bool
    private let outcome = LockedValue<Result<Deck, RuntimeError>?>(nil)
    private let difference = LockedValue<(diff: DeckDiff, version: Int)?>(nil)
    private let baseDeck = LockedValue<(deck: Deck, version: Int)?>(nil)
    private let abandoned = LockedValue(false)

    init(path: String, findsDifference: Bool = false) {
        self.path = path
        self.text = nil
        self.findsDifference = findsDifference
    }

    init(text: String, findsDifference: Bool = true) {
        self.path = "(given as JSON)"
        self.text = text
        self.findsDifference = findsDifference
    }

    var result: Result<Deck, RuntimeError>? { outcome.withLock { $0 } }

    /// The difference from the deck shown when the load started to the decoded deck, found on the
    /// thread (set before `result`).
    var precomputed: (diff: DeckDiff, version: Int)? { difference.withLock { $0 } }

    /// The deck shown (and its version) when the load started, for `findsDifference`.
    fileprivate(set) var base: (deck: Deck, version: Int)? {
        get { baseDeck.withLock { $0 } }
        set { baseDeck.withLock { $0 = newValue } }
    }

    /// No one waits for it any more (its client went away): its deck is not shown.
    fileprivate(set) var isAbandoned: Bool {
        get { abandoned.withLock { $0 } }
        set { abandoned.withLock { $0 = newValue } }
    }

    fileprivate func finish(_ result: Result<Deck, RuntimeError>) {
        if let base, case .success(let deck) = result {
            let diff = DeckDiff(from: base.deck, to: deck)
            difference.withLock { $0 = (diff, base.version) }
        }
        // The shown deck's copy is not kept past the difference.
        baseDeck.withLock { $0 = nil }
        outcome.withLock { $0 = result }
    }
}

/// What a loader thread owns: the load to fill in and the pipe to wake the loop through (kept
/// alive by the thread, so a thread outliving the session never writes to a closed descriptor).
private final class LoadJob: Sendable {
    let load: DeckLoad
    let wakeUp: WakeUpPipe

    init(load: DeckLoad, wakeUp: WakeUpPipe) {
        self.load = load
        self.wakeUp = wakeUp
    }

    func run() {
        do throws(RuntimeError) {
            if let text = load.text {
                load.finish(.success(try DeckFile.decode(text: text)))
            } else {
                load.finish(.success(try DeckFile.load(load.path)))
            }
        } catch {
            load.finish(.failure(error))
        }
        var byte: UInt8 = 1
        _ = write(wakeUp.writeEnd, &byte, 1)  // a full pipe already wakes the loop: nothing lost
    }
}

/// A non-blocking pipe, closed when the last owner (the loader or a running thread) lets go.
private final class WakeUpPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(RuntimeError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw RuntimeError(Errno.current, "cannot make a pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
