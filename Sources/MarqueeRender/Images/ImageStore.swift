import Glibc
import MarqueeCore

/// The renderer's pictures: decoded and scaled on worker threads, kept in a bounded cache, looked
/// up on the frame path without ever reading or decoding there.
///
/// - Lookups (`image(for:now:)`) take one lock and return at once; a request not known yet is
///   queued ahead of every prefetched one.
/// - A worker takes the oldest waiting request and, with it, every other waiting request for the
///   same file: the file is read and decoded once (a JPEG at the smallest DCT scale still large
///   enough for the largest of them) and scaled once per size. The decoded original is dropped as
///   soon as those requests are served: originals are the large part (a 600x400 photo is 960 KB,
///   its 300x200 thumbnail a quarter of it) and a new size is rare once a deck is laid out.
/// - Scaled images stay in a cache of at most `cacheBytes`, evicting the least recently looked-up
///   first. An evicted image asked for again is decoded again.
/// - The renderer marks its frames (`beginFrame()`, `endFrame()`): the pictures looked up in the
///   frame being drawn or the one before are pinned, never evicted for another picture. A request
///   whose room could only be made by evicting a pinned picture is not decoded: it is deferred
///   (drawn as its placeholder, as a failure is) and looked at again each frame that asks for it,
///   so it shows once the pictures on screen change. When the frame's own pictures need more than
///   the cache, that is reported once for the run, as a failure naming the MiB they need. Without
///   frames (the bench, tests of the cache alone) nothing is pinned.
/// - A box larger than `--image-max-pixels` or the whole cache fails at once, reported (once per
///   file and limit, whatever the box sizes) as a file that cannot be shown is.
/// - A file that cannot be shown fails for every size; it stays failed until it changes (a worker
///   looks every `recheckSeconds`) or `reload()` (the session calls it when the deck is
///   replaced), and is reported once per version of the file.
/// - Every finished file writes a byte to `wakeUpDescriptor`; the run loop polls it, calls
///   `takeChanges()` and redraws the cards whose requests became ready.
public final class ImageStore: ImageProviding {
    public let limits: ImageStoreLimits
    private let work: ImageWork

    public init(limits: ImageStoreLimits = ImageStoreLimits()) throws(ImageError) {
        self.limits = limits
        work = try ImageWork(limits: limits)
        // The workers start with every signal blocked (a thread inherits its creator's mask): the
        // session blocks SIGTERM, SIGINT and SIGHUP to read them from a signalfd, but only after
        // the store exists, and a signal the kernel hands to a thread that does not block it
        // takes its default action: the process dies instead of exiting cleanly.
        var allSignals = sigset_t()
        var previousMask = sigset_t()
        sigfillset(&allSignals)
        pthread_sigmask(SIG_BLOCK, &allSignals, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        for _ in 0..<limits.threads {
            let context = Unmanaged.passRetained(work).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<ImageWork>.fromOpaque(context!).takeRetainedValue().serve()
                    return nil
                }, context)
            guard status == 0 else {
                Unmanaged<ImageWork>.fromOpaque(context).release()
                work.stop()
                throw ImageError("cannot start an image decoding thread: \(Errno(rawValue: status))")
            }
            pthread_detach(thread)
        }
    }

    deinit { work.stop() }

    /// Readable when an image became ready or failed since the last `takeChanges()`.
    public var wakeUpDescriptor: Int32 { work.pipe.readEnd }

    /// On a virtual clock: a picture is never shown in the frame that first asks for it, even if
    /// it was decoded in time (prefetched, or done while the frame was being drawn). The frame it
    /// first appears in then depends on the frames alone, never on how fast the workers were, so a
    /// scripted run draws the same frames every time (the session draws no frame while a picture
    /// the last one asked for is decoding). Set before the first frame.
    public var holdsFirstSight: Bool {
        get { work.holdsFirstSight }
        set { work.holdsFirstSight = newValue }
    }

    public func image(for request: ImageRequest, now: Double) -> ImageState {
        work.lookUp(request, now: now)
    }

    public func prefetch(_ requests: [ImageRequest]) { work.prefetch(requests) }

    public func beginFrame() { work.beginFrame() }

    public func endFrame() { work.endFrame() }

    /// Whether `request` is queued or being decoded (without queueing it or marking it drawn).
    public func isPending(_ request: ImageRequest) -> Bool { work.isPending(request) }

    /// Whether failures wait for `takeChanges()`: a box refused at look-up is one as soon as the
    /// frame that asked for it is drawn, before the wake-up pipe is next polled.
    public var hasNewFailures: Bool { work.hasNewFailures }

    /// Empties the wake-up pipe and returns what changed since the last call.
    public func takeChanges() -> ImageChanges {
        work.pipe.drain()
        return work.takeChanges()
    }

    /// Forgets every failure and every waiting request, and drops cached images whose file has
    /// changed (one `stat` per file): for `load` and `apply`, when files may have been fixed.
    public func reload() { work.reload() }

    /// Reports a path refused before any request was made for it (outside `--restrict-paths`), as
    /// a failure of its own: one `image-failed` event per path.
    public func reportRefused(path: String, error: String) { work.reportRefused(path: path, error: error) }

    public var statistics: ImageStoreStatistics { work.statistics }
}

/// The state the store and its workers share, behind one mutex; workers sleep on a condition
/// variable while nothing is queued.
final class ImageWork: @unchecked Sendable {
    enum Phase {
        case queued, decoding, ready, failed
        /// Not decoded (or its scaled image dropped) because the pictures pinned by the last two
        /// frames leave no room for it: a placeholder until a frame asks and finds room.
        case deferred
    }

    struct Entry {
        var phase: Phase
        var urgent = false
        var image: PixmanImage?
        var readyAt: Double?
        var lastUse: UInt64 = 0
        var identity: ImageFile.Identity?
        var failure: String?
        /// The `now` of the first frame that looked the request up (`holdsFirstSight`).
        var firstLookUp: Double?
        /// The last frame (`ImageWork.frame`) that looked it up; 0 for none.
        var frame: UInt64 = 0

        /// Whether it has or will have its scaled image in the cache.
        var holdsRoom: Bool { phase == .ready || phase == .queued || phase == .decoding }
    }

    struct FailedFile {
        var identity: ImageFile.Identity?
        var message: String
        /// The requests that asked for it (at most `rememberedRequests`), queued again when the
        /// file changes.
        var requests: Set<ImageRequest> = []
    }

    static let rememberedRequests = 64

    /// What a worker does next.
    enum Job {
        case decode([ImageRequest])
        /// Look whether these failed files have changed since they failed.
        case recheck([String: ImageFile.Identity?])
    }

    let limits: ImageStoreLimits
    let pipe: ReadinessPipe
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    private var entries: [ImageRequest: Entry] = [:]
    private var urgentQueue: [ImageRequest] = []
    private var aheadQueue: [ImageRequest] = []
    private var failedFiles: [String: FailedFile] = [:]
    /// Versions of files already reported, so each is reported once for the whole run.
    private var reported: Set<String> = []
    private var newFailures: [ImageFailure] = []
    private var newlyReady: Set<ImageRequest> = []
    private var cachedBytes = 0
    private var useClock: UInt64 = 0
    private var counters = ImageStoreStatistics(
        cachedBytes: 0, cachedImages: 0, decodes: 0, scales: 0, evictions: 0, deferrals: 0)
    private var stopping = false
    /// When failed files are next looked at again (CLOCK_MONOTONIC seconds).
    private var nextRecheck = 0.0
    /// Files a worker is reading or decoding now.
    private var busyPaths: Set<String> = []
    /// `ImageStore.holdsFirstSight`.
    var holdsFirstSight: Bool {
        get { locked { firstSightHeld } }
        set { locked { firstSightHeld = newValue } }
    }
    private var firstSightHeld = false
    /// The frame being drawn (`beginFrame()`), 0 before the first: then nothing is pinned.
    private var frame: UInt64 = 0
    /// Bytes of the requests that hold room (`Entry.holdsRoom`) last looked up in this frame and
    /// in the one before: together, the room the pinned pictures take or will take.
    private var demandNow = 0
    private var demandLast = 0
    /// This frame's distinct requests (but failed ones) and their bytes, and those deferred.
    private var frameRequests = 0
    private var frameNeed = 0
    private var frameDeferred: [ImageRequest] = []
    /// Whether the pictures on screen were reported as needing more than the cache (once a run).
    private var roomReported = false

    init(limits: ImageStoreLimits) throws(ImageError) {
        self.limits = limits
        pipe = try ReadinessPipe()
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    func stop() {
        locked {
            stopping = true
            pthread_cond_broadcast(condition)
        }
    }

    /// Why a request can never be served, before anything is read (reported as a failure of the
    /// file, as a file that cannot be decoded is): the limit it passes (the key it is reported
    /// under, once per file whatever the box) and the message.
    private func refusal(_ request: ImageRequest) -> (limit: String, message: String)? {
        if request.width <= 0 || request.height <= 0 { return ("empty", "the image's box is empty") }
        if request.width * request.height > limits.maximumPixels {
            return (
                "--image-max-pixels",
                "the box \(request.width)x\(request.height) is more than the \(limits.maximumPixels) pixels of --image-max-pixels"
            )
        }
        if request.width * request.height * 4 > limits.cacheBytes {
            // Tenths of a MiB, rounded.
            let tenths = (request.width * request.height * 4 * 10 + (1 << 19)) >> 20
            return (
                "--image-cache",
                "the box \(request.width)x\(request.height) needs \(tenths / 10).\(tenths % 10) MiB, more than the whole --image-cache (\(limits.cacheBytes >> 20) MiB): raise --image-cache"
            )
        }
        return nil
    }

    /// The room a request's scaled image takes: premultiplied ARGB, exactly its box.
    private static func bytes(_ request: ImageRequest) -> Int { request.width * request.height * 4 }

    /// Whether a frame that asked for `entry` is the one being drawn or the one before.
    private func isPinned(_ entry: Entry) -> Bool { entry.frame > 0 && entry.frame + 1 >= frame }

    /// Every change of an entry's phase or frame, and every removal, goes through here, so that
    /// `demandNow` and `demandLast` stay the sums they are.
    private func set(_ request: ImageRequest, _ entry: Entry?) {
        account(entries[request], request, -1)
        entries[request] = entry
        account(entry, request, 1)
    }

    private func account(_ entry: Entry?, _ request: ImageRequest, _ sign: Int) {
        guard let entry, entry.holdsRoom, entry.frame > 0 else { return }
        if entry.frame == frame {
            demandNow += sign * Self.bytes(request)
        } else if entry.frame + 1 == frame {
            demandLast += sign * Self.bytes(request)
        }
    }

    /// Whether `request` fits in the cache beside what the pinned requests take or will take.
    private func fitsBesidePinned(_ request: ImageRequest) -> Bool {
        frame == 0 || demandNow + demandLast + Self.bytes(request) <= limits.cacheBytes
    }

    private static let deferredMessage = "no room in --image-cache beside the other pictures on screen"

    func beginFrame() {
        locked {
            frame += 1
            demandLast = demandNow
            demandNow = 0
            frameRequests = 0
            frameNeed = 0
            frameDeferred.removeAll(keepingCapacity: true)
        }
    }

    /// The frame's pictures have all been looked up. Deferred ones are reported once a run when
    /// the frame's own pictures need more than the cache. Otherwise the room was held by the
    /// frame before (a scroll's last frame still pins the pictures that just left): they are
    /// handed back as changed, so a next frame is drawn and finds the room.
    func endFrame() {
        var signal = false
        locked {
            assert(demandNow + demandLast == recountedDemand(), "the pinned demand's sums drifted")
            guard frame > 0, !frameDeferred.isEmpty else { return }
            if frameNeed > limits.cacheBytes {
                guard !roomReported else { return }
                roomReported = true
                // Tenths of a MiB, rounded.
                let tenths = (frameNeed * 10 + (1 << 19)) >> 20
                newFailures.append(
                    ImageFailure(
                        path: frameDeferred[0].path,
                        error:
                            "the \(frameRequests) pictures on screen need \(tenths / 10).\(tenths % 10) MiB together, more than --image-cache (\(limits.cacheBytes >> 20) MiB): \(frameDeferred.count) of them are shown as placeholders; raise --image-cache"
                    ))
            } else {
                for request in frameDeferred { newlyReady.insert(request) }
            }
            signal = true
        }
        if signal { pipe.signal() }
    }

    /// `demandNow + demandLast` counted afresh (a check in debug builds).
    private func recountedDemand() -> Int {
        var sum = 0
        for (request, entry) in entries where entry.holdsRoom && isPinned(entry) { sum += Self.bytes(request) }
        return sum
    }

    // MARK: The frame path

    func lookUp(_ request: ImageRequest, now: Double) -> ImageState {
        var refusedNow = false
        let state = locked { () -> ImageState in
            if let failed = failedFiles[request.path] {
                if failed.requests.count < Self.rememberedRequests {
                    failedFiles[request.path]!.requests.insert(request)
                }
                return .failed(failed.message)
            }
            if var entry = entries[request] {
                let firstLookUp = entry.firstLookUp ?? now
                if entry.firstLookUp == nil { entries[request]!.firstLookUp = now }
                if frame > 0, entry.frame != frame {
                    // The first look-up in this frame: pinned from now on.
                    entry.frame = frame
                    entry.firstLookUp = firstLookUp
                    set(request, entry)
                    if entry.phase != .failed {
                        frameRequests += 1
                        frameNeed += Self.bytes(request)
                    }
                    // A deferred request is looked at again once a frame, at its first look-up
                    // (the frame's description): the frame's later look-ups find what it found.
                    if entry.phase == .deferred {
                        if fitsBesidePinned(request) {
                            entry.phase = .queued
                            entry.urgent = true
                            entry.firstLookUp = now
                            set(request, entry)
                            urgentQueue.append(request)
                            pthread_cond_signal(condition)
                        } else {
                            frameDeferred.append(request)
                        }
                    }
                }
                switch entry.phase {
                case .ready where firstSightHeld && firstLookUp >= now:
                    return .pending
                case .ready:
                    useClock += 1
                    entries[request]!.lastUse = useClock
                    // Ready from the first frame that can draw it: the fade-in starts there.
                    let readyAt = entry.readyAt ?? now
                    entries[request]!.readyAt = readyAt
                    return .ready(entry.image!, readyAt: readyAt)
                case .failed: return .failed(entry.failure ?? "cannot be shown")
                case .deferred: return .failed(Self.deferredMessage)
                case .decoding: return .pending
                case .queued:
                    if !entry.urgent {
                        entries[request]!.urgent = true
                        urgentQueue.append(request)
                        pthread_cond_signal(condition)
                    }
                    return .pending
                }
            }
            if let (limit, reason) = refusal(request) {
                set(request, Entry(phase: .failed, failure: reason, frame: frame))
                // A box too large for the limits is as lasting as a broken file: reported as one,
                // once per file and limit (with the first box's size), however many cards, boxes
                // and frames ask. An empty box shows nothing anyway and is not reported.
                if request.width > 0, request.height > 0,
                    reported.insert("box\u{0}\(request.path)\u{0}\(limit)").inserted
                {
                    newFailures.append(ImageFailure(path: request.path, error: reason))
                    refusedNow = true
                }
                return .failed(reason)
            }
            if frame > 0 {
                frameRequests += 1
                frameNeed += Self.bytes(request)
                guard fitsBesidePinned(request) else {
                    set(request, Entry(phase: .deferred, firstLookUp: now, frame: frame))
                    frameDeferred.append(request)
                    counters.deferrals += 1
                    return .failed(Self.deferredMessage)
                }
            }
            set(request, Entry(phase: .queued, urgent: true, firstLookUp: now, frame: frame))
            urgentQueue.append(request)
            pthread_cond_signal(condition)
            return .pending
        }
        if refusedNow { pipe.signal() }
        return state
    }

    func isPending(_ request: ImageRequest) -> Bool {
        locked {
            guard failedFiles[request.path] == nil, let entry = entries[request] else { return false }
            return entry.phase == .queued || entry.phase == .decoding
        }
    }

    func prefetch(_ requests: [ImageRequest]) {
        locked {
            var added = false
            for request in requests where failedFiles[request.path] == nil {
                // A picture that could only be kept by evicting one the screen shows is not
                // decoded ahead (each frame asks again; a deferred one, when it fits again).
                guard entries[request] == nil || entries[request]?.phase == .deferred,
                    refusal(request) == nil, fitsBesidePinned(request)
                else { continue }
                var entry = entries[request] ?? Entry(phase: .queued)
                entry.phase = .queued
                set(request, entry)
                aheadQueue.append(request)
                added = true
            }
            // The oldest prefetches are the furthest behind the scroll by now.
            while aheadQueue.count > limits.maximumPrefetches {
                let old = aheadQueue.removeFirst()
                if let entry = entries[old], entry.phase == .queued, !entry.urgent { set(old, nil) }
            }
            if added { pthread_cond_signal(condition) }
        }
    }

    var hasNewFailures: Bool { locked { !newFailures.isEmpty } }

    func takeChanges() -> ImageChanges {
        locked {
            defer {
                newlyReady = []
                newFailures = []
            }
            return ImageChanges(ready: newlyReady, failures: newFailures)
        }
    }

    var statistics: ImageStoreStatistics {
        locked {
            var result = counters
            result.cachedBytes = cachedBytes
            result.cachedImages = entries.values.count { $0.phase == .ready }
            return result
        }
    }

    func reportRefused(path: String, error: String) {
        let fresh = locked {
            guard reported.insert("refused\u{0}\(path)").inserted else { return false }
            newFailures.append(ImageFailure(path: path, error: error))
            return true
        }
        if fresh { pipe.signal() }
    }

    func reload() {
        let cached: [(ImageRequest, ImageFile.Identity?)] = locked {
            failedFiles = [:]
            urgentQueue = []
            aheadQueue = []
            for (request, entry) in entries
            where entry.phase == .queued || entry.phase == .failed || entry.phase == .deferred {
                set(request, nil)
            }
            return entries.compactMap { $0.value.phase == .ready ? ($0.key, $0.value.identity) : nil }
        }
        var now: [String: ImageFile.Identity] = [:]
        for (request, _) in cached where now[request.path] == nil { now[request.path] = .of(request.path) }
        locked {
            for (request, identity) in cached where identity != now[request.path] {
                if let entry = entries[request], entry.phase == .ready, entry.identity == identity {
                    cachedBytes -= entry.image?.byteCount ?? 0
                    set(request, nil)
                }
            }
        }
    }

    // MARK: The workers

    /// A worker's life: take a file's waiting requests, serve them, until the store goes away.
    func serve() {
        // Decoding yields to the loop: on a board with two cores, a burst of photos must not take
        // the CPU a frame needs. On Linux a nice value belongs to a thread, and `who` 0 is the
        // calling thread.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        while let job = nextJob() {
            guard case .decode(let group) = job else {
                if case .recheck(let failed) = job { recheck(failed) }
                continue
            }
            let path = group[0].path
            let (read, identity) = ImageFile.read(
                path, maximumBytes: limits.maximumFileBytes, within: limits.readableFolders)
            let outcome: Result<[ImageRequest: Result<PixmanImage, ImageError>], ImageError>
            switch read {
            case .failure(let error): outcome = .failure(error)
            case .success(let bytes): outcome = decodeAndScale(bytes, group)
            }
            finish(path, group, identity, outcome)
            pipe.signal()
        }
    }

    private func decodeAndScale(_ bytes: [UInt8], _ group: [ImageRequest])
        -> Result<[ImageRequest: Result<PixmanImage, ImageError>], ImageError>
    {
        do throws(ImageError) {
            let size = try ImageDecoder.size(of: bytes, maximumPixels: limits.maximumPixels)
            let fits = group.map { ImageScaler.drawnSize(source: size, box: ($0.width, $0.height), fit: $0.fit) }
            locked { counters.decodes += 1 }
            let original = try ImageDecoder.decode(bytes, maximumPixels: limits.maximumPixels, drawnAt: fits)
            var scaled: [ImageRequest: Result<PixmanImage, ImageError>] = [:]
            for request in group {
                do throws(ImageError) {
                    scaled[request] = .success(try ImageScaler.scale(original, to: request))
                } catch {
                    scaled[request] = .failure(error)
                }
            }
            return .success(scaled)
        } catch {
            return .failure(error)
        }
    }

    /// The first waiting request in `queue` whose file no other worker is decoding (its turn
    /// comes when that worker is done, and the file is then read once for all of them); stale
    /// records (served or forgotten since) are dropped on the way.
    private func take(from queue: inout [ImageRequest]) -> ImageRequest? {
        var index = 0
        while index < queue.count {
            let request = queue[index]
            guard entries[request]?.phase == .queued else {
                queue.remove(at: index)
                continue
            }
            if busyPaths.contains(request.path) {
                index += 1
                continue
            }
            queue.remove(at: index)
            return request
        }
        return nil
    }

    /// Waits for work; nil when the store is gone.
    private func nextJob() -> Job? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !stopping {
            if !failedFiles.isEmpty, Self.monotonicNow() >= nextRecheck {
                nextRecheck = Self.monotonicNow() + limits.recheckSeconds
                return .recheck(failedFiles.mapValues(\.identity))
            }
            if let head = take(from: &urgentQueue) ?? take(from: &aheadQueue) {
                var group = [head]
                for (request, entry) in entries
                where entry.phase == .queued && request.path == head.path && request != head {
                    group.append(request)
                }
                for request in group { entries[request]!.phase = .decoding }
                busyPaths.insert(head.path)
                return .decode(group)
            }
            if failedFiles.isEmpty {
                pthread_cond_wait(condition, mutex)
            } else {
                // Wake for the next look at the failed files (the condition variable's clock is
                // CLOCK_REALTIME; a jump of the wall clock only moves one look).
                var deadline = timespec()
                clock_gettime(CLOCK_REALTIME, &deadline)
                let wait = max(0, nextRecheck - Self.monotonicNow())
                let nanoseconds = Int(deadline.tv_nsec) + Int((wait - wait.rounded(.down)) * 1e9)
                deadline.tv_sec += Int(wait.rounded(.down)) + nanoseconds / 1_000_000_000
                deadline.tv_nsec = nanoseconds % 1_000_000_000
                pthread_cond_timedwait(condition, mutex, &deadline)
            }
        }
        return nil
    }

    /// Failed files whose identity (device, inode, size, modification time, or the error of a
    /// missing file) is not what it was when they failed are forgotten, and the requests that
    /// asked for them queued again: a photo copied in after the deck was shown appears by itself.
    private func recheck(_ failed: [String: ImageFile.Identity?]) {
        var changed: [String] = []
        for (path, identity) in failed where ImageFile.Identity.of(path) != identity { changed.append(path) }
        guard !changed.isEmpty else { return }
        locked {
            for path in changed {
                guard let file = failedFiles.removeValue(forKey: path) else { continue }
                for request in file.requests where entries[request] == nil {
                    set(request, Entry(phase: .queued))
                    aheadQueue.append(request)
                }
            }
            pthread_cond_broadcast(condition)
        }
    }

    static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func finish(
        _ path: String, _ group: [ImageRequest], _ identity: ImageFile.Identity,
        _ outcome: Result<[ImageRequest: Result<PixmanImage, ImageError>], ImageError>
    ) {
        locked {
            busyPaths.remove(path)
            pthread_cond_broadcast(condition)  // requests for this file waited for it
            switch outcome {
            case .failure(let error):
                var requests = Set(group.prefix(Self.rememberedRequests))
                for (request, _) in entries where request.path == path && requests.count < Self.rememberedRequests {
                    requests.insert(request)
                }
                if failedFiles.isEmpty { nextRecheck = Self.monotonicNow() + limits.recheckSeconds }
                failedFiles[path] = FailedFile(identity: identity, message: error.message, requests: requests)
                for (request, entry) in entries where request.path == path {
                    if entry.phase == .ready { cachedBytes -= entry.image?.byteCount ?? 0 }
                    set(request, nil)
                }
                if reported.insert("\(path)\u{0}\(identity)").inserted {
                    newFailures.append(ImageFailure(path: path, error: error.message))
                }
            case .success(let images):
                for (request, result) in images {
                    guard var entry = entries[request], entry.phase == .decoding else { continue }
                    switch result {
                    case .failure(let error):
                        set(request, Entry(phase: .failed, failure: error.message, frame: entry.frame))
                    case .success(let image):
                        counters.scales += 1
                        guard makeRoom(for: image.byteCount) else {
                            // Kept, it would evict a picture a frame just drew. A pinned one is
                            // handed back as changed: the next frame asks again and finds room
                            // (the pictures on screen changed) or defers it.
                            entry.phase = .deferred
                            entry.urgent = false
                            set(request, entry)
                            if isPinned(entry) { newlyReady.insert(request) }
                            counters.deferrals += 1
                            continue
                        }
                        cachedBytes += image.byteCount
                        set(
                            request,
                            Entry(
                                phase: .ready, image: image, identity: identity, firstLookUp: entry.firstLookUp,
                                frame: entry.frame))
                        newlyReady.insert(request)
                    }
                }
            }
        }
    }

    /// Evicts the least recently looked-up images that no frame pins until `bytes` more fit in
    /// the cache; false, evicting nothing, when they cannot. (A scan per insertion: the cache
    /// holds hundreds of images, not millions.)
    private func makeRoom(for bytes: Int) -> Bool {
        guard cachedBytes + bytes > limits.cacheBytes else { return true }
        var evictable = 0
        for (_, entry) in entries where entry.phase == .ready && !isPinned(entry) {
            evictable += entry.image?.byteCount ?? 0
        }
        guard cachedBytes - evictable + bytes <= limits.cacheBytes else { return false }
        while cachedBytes + bytes > limits.cacheBytes {
            var oldest: (ImageRequest, UInt64)?
            for (request, entry) in entries where entry.phase == .ready && !isPinned(entry) {
                if oldest == nil || entry.lastUse < oldest!.1 { oldest = (request, entry.lastUse) }
            }
            guard let (victim, _) = oldest else { return false }
            cachedBytes -= entries[victim]!.image!.byteCount
            set(victim, nil)
            newlyReady.remove(victim)
            counters.evictions += 1
        }
        return true
    }
}
