import Glibc
import MarqueeCore

/// Reads and decodes decks on threads of their own, so that a `load` (or a SIGHUP reload) of a
/// large deck never stops the run loop: frames are presented and other sources served meanwhile,
/// and SIGTERM ends Marquee at once (the thread is detached and simply dies with the process).
///
/// Each finished load writes a byte to a pipe the run loop polls; the loop then picks up the
/// results it is waiting for (`DeckLoad.result`) and applies them on its own thread, where the
/// renderer and the scene live.
final class DeckLoader {
    /// Readable when a load has finished since the last `drain()`.
    var fd: Int32 { wakeUp.readEnd }
    private let wakeUp: WakeUpPipe

    init() throws(RuntimeError) {
        wakeUp = try WakeUpPipe()
    }

    /// Starts reading `path` (already checked against `--restrict-paths`) on a new thread. With
    /// a `base` (the shown deck and its version), the thread also finds the difference from it.
    func start(_ path: String, base: (deck: Deck, version: Int)? = nil) throws(RuntimeError) -> DeckLoad {
        try start(DeckLoad(path: path, base: base))
    }

    /// Starts decoding a deck given as JSON text (`apply {...}`) on a new thread.
    func start(text: String, base: (deck: Deck, version: Int)? = nil) throws(RuntimeError) -> DeckLoad {
        try start(DeckLoad(text: text, base: base))
    }

    private func start(_ load: DeckLoad) throws(RuntimeError) -> DeckLoad {
        let path = load.path
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
            throw RuntimeError(Errno(rawValue: status), "cannot start a thread to read \(path)")
        }
        pthread_detach(thread)
        return load
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
    /// For `apply`: the deck shown when the command came, and its version.
    let base: (deck: Deck, version: Int)?
    private let outcome = LockedValue<Result<Deck, RuntimeError>?>(nil)
    private let difference = LockedValue<(diff: DeckDiff, version: Int)?>(nil)

    init(path: String, base: (deck: Deck, version: Int)? = nil) {
        self.path = path
        self.text = nil
        self.base = base
    }

    init(text: String, base: (deck: Deck, version: Int)? = nil) {
        self.path = "(given as JSON)"
        self.text = text
        self.base = base
    }

    var result: Result<Deck, RuntimeError>? { outcome.withLock { $0 } }

    /// The difference from `base` to the decoded deck, found on the thread (set before `result`).
    var precomputed: (diff: DeckDiff, version: Int)? { difference.withLock { $0 } }

    fileprivate func finish(_ result: Result<Deck, RuntimeError>) {
        if let base, case .success(let deck) = result {
            let diff = DeckDiff(from: base.deck, to: deck)
            difference.withLock { $0 = (diff, base.version) }
        }
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
