import CStream
import Glibc
import MarqueeCore
import Synchronization

/// A thread of its own that copies the band renderer's windows out to scan-out memory while the
/// renderer draws the next window into the band's other half (docs/architecture.md, "Band copies
/// beside the render"). The copy (turned, converted, streamed into the scan-out buffer) and the
/// render each take a third to a half of a frame, and they share nothing but the window handed
/// over: on two cores the frame costs the longer of the two instead of their sum.
///
/// One frame at a time: `copying(through:_:)` lends the frame's sink for its duration, `hand`
/// gives the thread a window (at most `slots` are in flight: the band has that many halves),
/// and `copying` returns only after every window handed was copied, so the sink never outlives
/// the frame and the scan-out buffer is whole when the frame is committed. The thread spins for a
/// moment after its last window (the next window of a frame comes within microseconds), then
/// sleeps on a semaphore until the next frame wakes it.
final class BandCopier: @unchecked Sendable {
    /// The band's halves: windows in flight at most.
    static let slots = 2
    /// How long the thread spins for more windows before it sleeps, in nanoseconds. Longer than
    /// a band's render (about 15 microseconds at 1080p here, a few times that on a Pi), far
    /// shorter than a frame period.
    private static let spinNanoseconds: Int64 = 200_000

    /// Each half's state: `free` (the renderer may draw into it), `ready` (a window drawn, to be
    /// copied by whichever thread takes it first) or `copying`.
    private let state0 = Atomic<Int>(BandCopier.free)
    private let state1 = Atomic<Int>(BandCopier.free)
    private static let free = 0
    private static let ready = 1
    private static let copying = 2
    private let threadSleeps = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let wake: UnsafeMutablePointer<sem_t>
    /// The window each half holds, with its number in the frame (the oldest ready is copied
    /// first): written before the half is `ready`, read once it was taken.
    private let frames: UnsafeMutablePointer<PixelBuffer?>
    private let windows: UnsafeMutablePointer<Range<Int>>
    private let numbers: UnsafeMutablePointer<Int>
    private var handed = 0
    /// The frame's sink, lent for the duration of `copying` (written before any window is handed,
    /// cleared after every one was copied).
    private var sink: ((PixelBuffer, Range<Int>) -> Void)?

    /// Whether a copying thread can run beside the renderer: more than one core online, and
    /// not turned off by the environment (`MARQUEE_COPY_THREAD=off`, for comparisons).
    static let isUseful: Bool = {
        if let setting = getenv("MARQUEE_COPY_THREAD"), String(cString: setting) == "off" { return false }
        return sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
    }()

    /// Starts the thread; nil when it cannot be started (the renderer then copies each window
    /// itself, as on one core).
    static func start() -> BandCopier? {
        let copier = BandCopier()
        // Every signal blocked in the thread (it inherits its creator's mask): the session reads
        // SIGTERM and the others from a signalfd, and a signal the kernel gave a thread that does
        // not block it would take its default action.
        var allSignals = sigset_t()
        var previousMask = sigset_t()
        sigfillset(&allSignals)
        pthread_sigmask(SIG_BLOCK, &allSignals, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        let context = Unmanaged.passRetained(copier).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<BandCopier>.fromOpaque(context!).takeRetainedValue().serve()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<BandCopier>.fromOpaque(context).release()
            return nil
        }
        pthread_detach(thread)
        return copier
    }

    private init() {
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        frames = .allocate(capacity: Self.slots)
        frames.initialize(repeating: nil, count: Self.slots)
        windows = .allocate(capacity: Self.slots)
        windows.initialize(repeating: 0..<0, count: Self.slots)
        numbers = .allocate(capacity: Self.slots)
        numbers.initialize(repeating: 0, count: Self.slots)
    }

    /// Ends the thread (it holds the copier until it has seen this).
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        sem_post(wake)
    }

    /// Runs `body` with `sink` lent to the thread; returns once every window handed was copied.
    func copying<Result, Failure: Error>(
        through sink: (PixelBuffer, Range<Int>) -> Void, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withoutActuallyEscaping(sink) { (sink) throws(Failure) -> Result in
            self.sink = sink
            handed = 0
            // Woken now, the thread is up by the time the first window is drawn.
            if threadSleeps.exchange(false, ordering: .sequentiallyConsistent) { sem_post(wake) }
            defer {
                // Windows the thread has not taken are copied here; then those it copies are waited for.
                while let slot = takeOldestReady() { copy(slot) }
                for slot in 0..<Self.slots {
                    while state(slot) != Self.free { marquee_spin_pause() }
                }
                self.sink = nil
                for slot in 0..<Self.slots { frames[slot] = nil }
            }
            return try body()
        }
    }

    /// A half to draw the next window into: a free one, else the oldest window not yet taken by
    /// the thread is copied here first (the renderer never waits for a thread that is slow to
    /// wake), else the one being copied, once it is.
    func nextSlot() -> Int {
        while true {
            for slot in 0..<Self.slots where state(slot) == Self.free { return slot }
            if let slot = takeOldestReady() {
                copy(slot)
                return slot
            }
            marquee_spin_pause()
        }
    }

    /// Gives the thread the window drawn into `slot`.
    func hand(_ frame: PixelBuffer, rows: Range<Int>, slot: Int) {
        frames[slot] = frame
        windows[slot] = rows
        numbers[slot] = handed
        handed += 1
        setState(slot, Self.ready)
        if threadSleeps.exchange(false, ordering: .sequentiallyConsistent) { sem_post(wake) }
    }

    /// Claims the oldest `ready` half for the calling thread (nil: none is ready).
    private func takeOldestReady() -> Int? {
        while true {
            var oldest: Int?
            for slot in 0..<Self.slots where state(slot) == Self.ready {
                if let known = oldest, numbers[known] < numbers[slot] { continue }
                oldest = slot
            }
            guard let slot = oldest else { return nil }
            if take(slot) { return slot }
        }
    }

    // The halves' states, by slot (atomics cannot be kept in an array).
    private func state(_ slot: Int) -> Int {
        slot == 0 ? state0.load(ordering: .sequentiallyConsistent) : state1.load(ordering: .sequentiallyConsistent)
    }

    private func setState(_ slot: Int, _ value: Int) {
        if slot == 0 {
            state0.store(value, ordering: .sequentiallyConsistent)
        } else {
            state1.store(value, ordering: .sequentiallyConsistent)
        }
    }

    /// `ready` to `copying`, if no other thread took it first.
    private func take(_ slot: Int) -> Bool {
        if slot == 0 {
            return state0.compareExchange(
                expected: Self.ready, desired: Self.copying, ordering: .sequentiallyConsistent
            )
            .exchanged
        }
        return state1.compareExchange(expected: Self.ready, desired: Self.copying, ordering: .sequentiallyConsistent)
            .exchanged
    }

    /// Copies the window of a half this thread took, then frees the half.
    private func copy(_ slot: Int) {
        if let frame = frames[slot], let sink { sink(frame, windows[slot]) }
        setState(slot, Self.free)
    }

    private func serve() {
        var spinStart: Int64?
        while !stopping.load(ordering: .relaxed) {
            if let slot = takeOldestReady() {
                copy(slot)
                spinStart = nil
                continue
            }
            let now = Self.nanoseconds()
            guard let start = spinStart, now - start > Self.spinNanoseconds else {
                if spinStart == nil { spinStart = now }
                for _ in 0..<32 { marquee_spin_pause() }
                continue
            }
            // Nothing for a while: sleep until a frame wakes the thread (checked once more after
            // saying so, since a window handed in between would not post).
            threadSleeps.store(true, ordering: .sequentiallyConsistent)
            if (0..<Self.slots).contains(where: { state($0) == Self.ready }) {
                threadSleeps.store(false, ordering: .relaxed)
                continue
            }
            while sem_wait(wake) != 0 && errno == EINTR {}
            spinStart = nil
        }
    }

    private static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    deinit {
        sem_destroy(wake)
        wake.deallocate()
        frames.deinitialize(count: Self.slots)
        frames.deallocate()
        windows.deallocate()
        numbers.deallocate()
    }
}
