import Foundation
import MarqueeCore
import MarqueeRender
import XCTest

/// The image store with real files and real worker threads: the wake-up descriptor, decoding
/// once per file and size, failures reported once, the cache's bound, and frame requests served
/// before prefetches.
final class ImageStoreTests: XCTestCase {
    /// Looks `requests` up (as frames do) until none is pending, sleeping on the wake-up
    /// descriptor in between; fails after `seconds` (a stall).
    @discardableResult
    private func settle(
        _ store: ImageStore, _ requests: [ImageRequest], seconds: Double = 30, file: StaticString = #filePath,
        line: UInt = #line
    ) -> [ImageRequest: ImageState] {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            var states: [ImageRequest: ImageState] = [:]
            for request in requests { states[request] = store.image(for: request, now: 1) }
            if !states.values.contains(where: { if case .pending = $0 { true } else { false } }) { return states }
            if Date() > deadline {
                XCTFail("images still pending after \(seconds) s", file: file, line: line)
                return states
            }
            var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 100)
        }
    }

    private func isReady(_ state: ImageState?) -> Bool { if case .ready = state { true } else { false } }

    private func failure(_ state: ImageState?) -> String? { if case .failed(let why) = state { why } else { nil } }

    /// An opaque PNG of its own colour, written with Marquee's PNG writer.
    private func writePNG(_ path: String, width: Int = 100, height: Int = 100, seed: Int = 0) throws {
        let buffer = PixelBuffer(width: width, height: height)
        buffer.withPixels { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    pixels[y * buffer.stride + x] =
                        0xFF00_0000 | UInt32((x + seed * 37) & 0xFF) << 16 | UInt32(y & 0xFF) << 8 | UInt32(seed & 0xFF)
                }
            }
        }
        try PNGFile.write(buffer, to: path)
    }

    func testWakeUpDescriptorBecomesReadableWhenADecodeFinishes() throws {
        let files = try ImageTestFiles()
        try writePNG(files.path("a.png"))
        let store = try ImageStore()
        var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 0), 0, "nothing finished yet")
        let request = ImageRequest(path: files.path("a.png"), width: 50, height: 40, fit: .cover, radius: 6)
        guard case .pending = store.image(for: request, now: 0) else { return XCTFail("a lookup never decodes") }
        XCTAssertEqual(poll(&descriptor, 1, 20_000), 1, "readable once decoded")
        let changes = store.takeChanges()
        XCTAssertEqual(changes.ready, [request])
        XCTAssertEqual(changes.failures, [])
        XCTAssertEqual(poll(&descriptor, 1, 0), 0, "emptied by takeChanges")
        guard case .ready(let image, let readyAt) = store.image(for: request, now: 2.5) else {
            return XCTFail("ready after the wake-up")
        }
        XCTAssertEqual(image.width, 50)
        XCTAssertEqual(image.height, 40)
        XCTAssertEqual(readyAt, 2.5, "ready from the first frame that sees it")
        guard case .ready(_, let later) = store.image(for: request, now: 3) else { return XCTFail() }
        XCTAssertEqual(later, 2.5, "the fade-in's start does not move")
    }

    func testOnAVirtualClockAPictureFirstShowsInTheFrameAfterTheFirstThatAskedForIt() throws {
        let files = try ImageTestFiles()
        try writePNG(files.path("a.png"))
        try writePNG(files.path("b.png"), seed: 1)
        let store = try ImageStore()
        store.holdsFirstSight = true
        let asked = ImageRequest(path: files.path("a.png"), width: 50, height: 40, fit: .cover)
        let prefetched = ImageRequest(path: files.path("b.png"), width: 50, height: 40, fit: .cover)
        // Decoded before any frame asks for it (prefetched), or while the first frame that asked
        // was drawn: either way that frame shows the placeholder, and the next the picture.
        store.prefetch([prefetched])
        guard case .pending = store.image(for: asked, now: 1) else { return XCTFail("a lookup never decodes") }
        // Slept, not polled: the wake-up descriptor stays readable from the first decode on (nothing
        // here takes the changes), so a poll would return at once while the second still decodes.
        for _ in 0..<400 where store.isPending(asked) || store.isPending(prefetched) { usleep(50_000) }
        XCTAssertFalse(store.isPending(asked), "decoded")
        XCTAssertFalse(store.isPending(prefetched), "decoded")
        guard case .pending = store.image(for: asked, now: 1) else {
            return XCTFail("not in the frame that asked first")
        }
        guard case .pending = store.image(for: prefetched, now: 1.5) else {
            return XCTFail("a prefetched picture not in the first frame that asks for it")
        }
        guard case .ready(_, let readyAt) = store.image(for: asked, now: 1.5) else { return XCTFail("the next frame") }
        XCTAssertEqual(readyAt, 1.5)
        guard case .ready(_, let second) = store.image(for: prefetched, now: 2) else { return XCTFail() }
        XCTAssertEqual(second, 2)
    }

    func testOneFileInManyCardsIsDecodedOncePerSize() throws {
        let files = try ImageTestFiles()
        let photo = ImageTestFiles.Picture(width: 600, height: 400) { x, y in (UInt8(x % 256), UInt8(y % 256), 7, 255) }
        try files.writeJPEG(photo, as: "photo.jpg")
        let store = try ImageStore()
        let card = ImageRequest(path: files.path("photo.jpg"), width: 300, height: 200, fit: .cover)
        for _ in 0..<50 { _ = store.image(for: card, now: 0) }  // fifty cards, one frame
        settle(store, [card])
        XCTAssertEqual(store.statistics.decodes, 1)
        XCTAssertEqual(store.statistics.scales, 1)
        // Two more sizes queued together: one more read and decode, two more scaled images.
        let sizes = [
            ImageRequest(path: card.path, width: 120, height: 80, fit: .contain),
            ImageRequest(path: card.path, width: 64, height: 64, fit: .cover, radius: 8),
        ]
        store.prefetch(sizes + sizes)
        settle(store, sizes + [card])
        XCTAssertEqual(store.statistics.decodes, 2)
        XCTAssertEqual(store.statistics.scales, 3)
        XCTAssertEqual(store.statistics.cachedImages, 3)
        XCTAssertEqual(store.statistics.cachedBytes, (300 * 200 + 120 * 80 + 64 * 64) * 4)
    }

    func testBrokenFilesFailOnceEachWithoutStallOrCrash() throws {
        let files = try ImageTestFiles()
        let good = ImageTestFiles.Picture(width: 64, height: 48) { x, y in (UInt8(x * 4), UInt8(y * 5), 9, 255) }
        try files.write(good, as: "good.png")
        try files.writeJPEG(good, as: "good.jpg")
        let png = try files.bytes("good.png")
        let jpeg = try files.bytes("good.jpg")
        var corrupt = jpeg
        for index in stride(from: jpeg.count / 2, to: jpeg.count - 2, by: 3) { corrupt[index] = 0xFF }
        XCTAssertEqual(mkfifo(files.path("fifo.png"), 0o644), 0)
        try FileManager.default.createDirectory(atPath: files.path("folder.png"), withIntermediateDirectories: false)
        let cases: [(path: String, error: String)] = [
            (files.path("missing.png"), "No such file or directory"),
            (try files.save(Array(png.prefix(png.count / 2)), as: "truncated.png"), "corrupt PNG"),
            (try files.save(Array(jpeg.prefix(jpeg.count / 2)), as: "truncated.jpg"), "corrupt JPEG"),
            (try files.save(corrupt, as: "corrupt.jpg"), "corrupt JPEG"),
            (try files.save(Array("<svg/>".utf8), as: "text.png"), "not a PNG or JPEG file"),
            (files.path("fifo.png"), "it is a FIFO (named pipe), not a regular file"),
            ("/dev/zero", "it is a character device, not a regular file"),
            (files.path("folder.png"), "it is a directory, not a regular file"),
            (
                try files.save(ImageTestFiles.pngHeader(width: 100_000, height: 100_000), as: "huge.png"),
                "100000x100000 is 10000000000 pixels, more than the 40000000 of --image-max-pixels"
            ),
            (
                try files.save(ImageTestFiles.withDeclaredSize(jpeg, width: 65_000, height: 65_000), as: "huge.jpg"),
                "65000x65000 is 4225000000 pixels, more than the 40000000 of --image-max-pixels"
            ),
        ]
        let store = try ImageStore()
        // Every broken file in two sizes, and a good one among them that must not be held up.
        var requests = cases.flatMap { broken in
            [
                ImageRequest(path: broken.path, width: 80, height: 60, fit: .contain),
                ImageRequest(path: broken.path, width: 40, height: 40, fit: .cover, radius: 4),
            ]
        }
        let fine = ImageRequest(path: files.path("good.png"), width: 32, height: 24, fit: .fill)
        requests.append(fine)
        let states = settle(store, requests)
        XCTAssertTrue(isReady(states[fine]))
        for request in requests where request != fine {
            let expected = cases.first { $0.path == request.path }!.error
            XCTAssertTrue(
                failure(states[request])?.contains(expected) == true,
                "\(request.path): \(String(describing: states[request])), expected \(expected)")
        }
        var failures = store.takeChanges().failures
        failures.sort { $0.path < $1.path }
        XCTAssertEqual(failures.map(\.path), cases.map(\.path).sorted(), "one failure per file")
        for failure in failures {
            XCTAssertTrue(failure.error.contains(cases.first { $0.path == failure.path }!.error), "\(failure)")
        }
        XCTAssertEqual(store.statistics.cachedBytes, 32 * 24 * 4, "nothing kept for broken files")
        // Still failed later, and not reported again.
        for request in requests where request != fine {
            XCTAssertNotNil(failure(store.image(for: request, now: 2)))
        }
        XCTAssertEqual(store.takeChanges().failures, [])
        // After a reload the same broken files are tried again but not reported again; a file
        // fixed meanwhile shows.
        try FileManager.default.removeItem(atPath: files.path("truncated.png"))
        try FileManager.default.copyItem(atPath: files.path("good.png"), toPath: files.path("truncated.png"))
        store.reload()
        let again = settle(store, requests)
        for request in requests {
            XCTAssertEqual(
                isReady(again[request]), request == fine || request.path == files.path("truncated.png"), request.path)
        }
        XCTAssertEqual(store.takeChanges().failures, [], "unchanged files are reported once")
    }

    func testAFailedFileThatChangesIsShownWithoutAReload() throws {
        let files = try ImageTestFiles()
        try writePNG(files.path("good.png"))
        let good = try files.bytes("good.png")
        let late = files.path("late.png")
        let broken = try files.save(Array(good.prefix(good.count / 2)), as: "broken.png")
        let store = try ImageStore(limits: ImageStoreLimits(recheckSeconds: 0.2))
        let requests = [late, broken].map { ImageRequest(path: $0, width: 20, height: 20, fit: .fill) }
        let states = settle(store, requests)
        XCTAssertNotNil(failure(states[requests[0]]))
        XCTAssertNotNil(failure(states[requests[1]]))
        XCTAssertEqual(store.takeChanges().failures.count, 2)
        let decodes = store.statistics.decodes
        // Unchanged, the broken file is not decoded again however often it is looked at.
        usleep(700_000)
        XCTAssertEqual(store.statistics.decodes, decodes)
        // The missing file copied in: ready without a reload, and the wake-up says so.
        _ = try files.save(good, as: "late.png")
        var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        var ready: Set<ImageRequest> = []
        let deadline = Date().addingTimeInterval(20)
        while !ready.contains(requests[0]) && Date() < deadline {
            _ = poll(&descriptor, 1, 100)
            ready.formUnion(store.takeChanges().ready)
        }
        XCTAssertEqual(ready, [requests[0]])
        XCTAssertTrue(isReady(store.image(for: requests[0], now: 3)))
        XCTAssertNotNil(failure(store.image(for: requests[1], now: 3)))
    }

    func testCacheStaysWithinItsBoundUnderManyDistinctImages() throws {
        let files = try ImageTestFiles()
        let bound = 200_000  // five 100x100 images
        let store = try ImageStore(limits: ImageStoreLimits(cacheBytes: bound))
        var requests: [ImageRequest] = []
        for index in 0..<40 {
            try writePNG(files.path("\(index).png"), seed: index)
            requests.append(ImageRequest(path: files.path("\(index).png"), width: 100, height: 100, fit: .fill))
        }
        for request in requests {
            XCTAssertTrue(isReady(settle(store, [request])[request]))
            XCTAssertLessThanOrEqual(store.statistics.cachedBytes, bound)
        }
        let statistics = store.statistics
        XCTAssertEqual(statistics.cachedImages, 5)
        XCTAssertEqual(statistics.evictions, 35)
        XCTAssertEqual(statistics.decodes, 40)
        // The most recently shown are the ones kept: no new decode for them, the oldest pending.
        for request in requests.suffix(5) { XCTAssertTrue(isReady(store.image(for: request, now: 2))) }
        guard case .pending = store.image(for: requests[0], now: 2) else { return XCTFail("the oldest was evicted") }
        // Back, it takes the place of the least recently shown (requests[35]). Waited for, so that
        // what the prefetch below finds cached does not depend on how fast the worker was: a
        // prefetch made while it was still decoding found requests[35] cached and made one
        // decode fewer (75 or 76 by the scheduler's whim, 1 run in 13 on a loaded machine).
        XCTAssertTrue(isReady(settle(store, [requests[0]])[requests[0]]))
        XCTAssertEqual(store.statistics.decodes, 41)
        XCTAssertEqual(store.statistics.evictions, 36)
        // Many at once (prefetching more than fits): the 35 not cached (1 to 35) are decoded
        // again, each evicting another, and the bound holds all the way.
        store.prefetch(requests)
        let deadline = Date().addingTimeInterval(30)
        while store.statistics.decodes < 76 && Date() < deadline {
            XCTAssertLessThanOrEqual(store.statistics.cachedBytes, bound)
            var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 50)
            _ = store.takeChanges()
        }
        XCTAssertEqual(store.statistics.decodes, 76)
        XCTAssertLessThanOrEqual(store.statistics.cachedBytes, bound)
    }

    /// Ten 200x200 boxes on screen (156 KiB each), each far below a 1 MiB cache but 1.5 MiB
    /// together. Drawn frame after frame as a session does (a frame after each change): six are
    /// shown and stay, the other four stay placeholders, nothing is decoded or evicted again, the
    /// frames stop changing, and one failure names the MiB the screen needs. Then the screen
    /// scrolls (six of them leave): the four and two new ones are shown. Before, the scaled
    /// images evicted each other: every frame decoded again and none settled.
    func testPicturesOnScreenNeedingMoreThanTheCacheTogetherSettle() throws {
        let files = try ImageTestFiles()
        let bound = 1 << 20
        let store = try ImageStore(limits: ImageStoreLimits(cacheBytes: bound))
        var requests: [ImageRequest] = []
        for index in 0..<12 {
            try writePNG(files.path("s\(index).png"), width: 300, height: 300, seed: index)
            requests.append(ImageRequest(path: files.path("s\(index).png"), width: 200, height: 200, fit: .cover))
        }
        var time = 0.0
        var failures: [ImageFailure] = []
        /// One frame: every picture on screen looked up, as the renderer does.
        func frame(_ screen: [ImageRequest]) -> [String] {
            store.beginFrame()
            defer { store.endFrame() }
            time += 1.0 / 60
            return screen.map { request in
                switch store.image(for: request, now: time) {
                case .pending: "pending"
                case .failed: "placeholder"
                case .ready(_, let readyAt): "ready \(readyAt)"
                }
            }
        }
        /// Frames until one is drawn with nothing pending and nothing changed after it (the
        /// session then draws no more); the last frame's looks.
        func settle(_ screen: [ImageRequest]) -> [String] {
            let deadline = Date().addingTimeInterval(30)
            while true {
                let looks = frame(screen)
                if !looks.contains("pending") {
                    let changes = store.takeChanges()
                    failures += changes.failures
                    if changes.ready.isEmpty { return looks }
                    continue
                }
                if Date() > deadline {
                    XCTFail("still pending after 30 s: \(looks)")
                    return looks
                }
                var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, 100)
                failures += store.takeChanges().failures
            }
        }
        let screen = Array(requests[0..<10])
        let settled = settle(screen)
        XCTAssertEqual(settled.filter { $0.hasPrefix("ready") }.count, 6, "\(settled)")
        XCTAssertEqual(settled.filter { $0 == "placeholder" }.count, 4, "\(settled)")
        let statistics = store.statistics
        XCTAssertEqual(statistics.decodes, 6, "the four that do not fit are not decoded")
        XCTAssertEqual(statistics.evictions, 0)
        XCTAssertLessThanOrEqual(statistics.cachedBytes, bound)
        // More frames of the same screen (a marquee beside it, say): the same looks, no decode,
        // nothing changed, nothing more reported.
        for _ in 0..<20 {
            XCTAssertEqual(frame(screen), settled)
            XCTAssertTrue(store.takeChanges().isEmpty)
        }
        XCTAssertEqual(store.statistics.decodes, 6)
        XCTAssertEqual(store.statistics.evictions, 0)
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?.path, settled.firstIndex(of: "placeholder").map { screen[$0].path })
        XCTAssertEqual(
            failures.first?.error,
            "the 10 pictures on screen need 1.5 MiB together, more than --image-cache (1 MiB): 4 of them are shown as placeholders; raise --image-cache"
        )
        // Scrolled: the six shown leave, the four placeholders stay and two come in. All six are
        // shown (the six that left make room), and that is not reported again.
        let shown = screen.indices.filter { settled[$0].hasPrefix("ready") }.map { screen[$0] }
        let next = screen.filter { !shown.contains($0) } + requests[10..<12]
        let scrolled = settle(next)
        XCTAssertTrue(scrolled.allSatisfy { $0.hasPrefix("ready") }, "\(scrolled)")
        XCTAssertEqual(store.statistics.decodes, 12)
        XCTAssertLessThanOrEqual(store.statistics.cachedBytes, bound)
        XCTAssertEqual(failures.count, 1, "\(failures)")
    }

    func testRequestsOfTheFrameGoBeforePrefetches() throws {
        let files = try ImageTestFiles()
        var ahead: [ImageRequest] = []
        for index in 0..<12 {
            try writePNG(files.path("p\(index).png"), width: 900, height: 900, seed: index)
            ahead.append(ImageRequest(path: files.path("p\(index).png"), width: 90, height: 90, fit: .fill))
        }
        try writePNG(files.path("now.png"), seed: 99)
        let store = try ImageStore(limits: ImageStoreLimits(threads: 1))
        store.prefetch(ahead)
        let urgent = ImageRequest(path: files.path("now.png"), width: 50, height: 50, fit: .fill)
        settle(store, [urgent])
        // The one worker may have started a prefetched file before the frame asked, and finished
        // one more before this thread looked: never most of the twelve.
        XCTAssertLessThanOrEqual(store.statistics.scales, 4)
        settle(store, ahead)
        XCTAssertEqual(store.statistics.scales, 13)
    }

    func testRequestsThatCanNeverBeServedFailAtOnce() throws {
        let store = try ImageStore(limits: ImageStoreLimits(cacheBytes: 1 << 20))
        XCTAssertNotNil(
            failure(store.image(for: ImageRequest(path: "/x.png", width: 0, height: 10, fit: .fill), now: 0)))
        XCTAssertNotNil(
            failure(store.image(for: ImageRequest(path: "/x.png", width: 1000, height: 1000, fit: .fill), now: 0)),
            "4 MB does not fit a 1 MiB cache")
        XCTAssertEqual(store.statistics.decodes, 0)
    }

    /// A picture whose box needs more than the whole `--image-cache` is never shown: the reason is
    /// reported as a broken file's is (one failure, whatever the cards and frames asking), not
    /// only kept in the store.
    func testABoxLargerThanTheWholeCacheIsReportedOnce() throws {
        let store = try ImageStore(limits: ImageStoreLimits(cacheBytes: 2 << 20))
        let big = ImageRequest(path: "/srv/photo.png", width: 1280, height: 600, fit: .fill)
        for now in [0.0, 0.1, 0.2] { XCTAssertNotNil(failure(store.image(for: big, now: now))) }
        XCTAssertNotNil(
            failure(store.image(for: ImageRequest(path: "/srv/photo.png", width: 0, height: 5, fit: .fill), now: 0)))
        var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 0), 1, "the session is woken to report it")
        XCTAssertEqual(
            store.takeChanges().failures,
            [
                ImageFailure(
                    path: "/srv/photo.png",
                    error:
                        "the box 1280x600 needs 2.9 MiB, more than the whole --image-cache (2 MiB): raise --image-cache"
                )
            ])
        _ = store.image(for: big, now: 0.3)
        XCTAssertEqual(store.takeChanges().failures, [], "reported once")
        // Another box of the same file too big for the cache: the same file, not reported again
        // (the report was keyed by the message, which names the box).
        XCTAssertFalse(store.hasNewFailures)
        let other = ImageRequest(path: "/srv/photo.png", width: 1000, height: 600, fit: .fill)
        XCTAssertNotNil(failure(store.image(for: other, now: 0.4)))
        XCTAssertFalse(store.hasNewFailures)
        XCTAssertEqual(store.takeChanges().failures, [], "once per file, whatever the box")
        // Another limit passed is another reason: reported once too.
        let huge = ImageRequest(path: "/srv/photo.png", width: 20_000, height: 20_000, fit: .fill)
        XCTAssertNotNil(failure(store.image(for: huge, now: 0.5)))
        XCTAssertTrue(store.hasNewFailures, "the session reports it after the frame")
        XCTAssertEqual(store.takeChanges().failures.count, 1)
    }

    func testRefusedPathsAreReportedOnce() throws {
        let store = try ImageStore()
        store.reportRefused(path: "/etc/passwd.png", error: "outside /srv/deck (--restrict-paths)")
        store.reportRefused(path: "/etc/passwd.png", error: "outside /srv/deck (--restrict-paths)")
        var descriptor = pollfd(fd: store.wakeUpDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 0), 1)
        XCTAssertEqual(
            store.takeChanges().failures,
            [ImageFailure(path: "/etc/passwd.png", error: "outside /srv/deck (--restrict-paths)")])
    }

    func testBenchmarkTimesEachSizeAndReportsTheCachesMemory() throws {
        let result = try ImageBenchmark.run(limits: ImageStoreLimits(cacheBytes: 2 << 20), repetitions: 2, files: 5)
        XCTAssertEqual(result.timings.map(\.width), [600, 300, 150])
        XCTAssertTrue(
            result.timings.allSatisfy { $0.medianMilliseconds > 0 && $0.worstMilliseconds >= $0.medianMilliseconds })
        XCTAssertEqual(result.statistics.scales, 5)
        XCTAssertEqual(result.statistics.cachedImages, 2, "two 600x400 pictures (960,000 bytes each) fit 2 MiB")
        XCTAssertEqual(result.statistics.cachedBytes, 2 * 600 * 400 * 4)
    }

    func testCheckNamesWhatIsWrongWithAFile() throws {
        let files = try ImageTestFiles()
        try writePNG(files.path("ok.png"))
        let picture = ImageTestFiles.Picture(width: 16, height: 16) { x, _ in (UInt8(x * 16), 0, 0, 255) }
        try files.writeJPEG(picture, as: "ok.jpg")
        XCTAssertNil(ImageCheck.problem(path: files.path("ok.png")))
        XCTAssertNil(ImageCheck.problem(path: files.path("ok.jpg")))
        let jpeg = try files.bytes("ok.jpg")
        XCTAssertEqual(ImageCheck.problem(path: files.path("no.png")), "No such file or directory")
        XCTAssertEqual(ImageCheck.problem(path: "/dev/zero"), "it is a character device, not a regular file")
        XCTAssertEqual(ImageCheck.problem(path: files.folder), "it is a directory, not a regular file")
        XCTAssertEqual(
            ImageCheck.problem(
                path: try files.save(ImageTestFiles.pngHeader(width: 100_000, height: 100_000), as: "h.png")),
            "100000x100000 is 10000000000 pixels, more than the 40000000 of --image-max-pixels")
        XCTAssertTrue(
            ImageCheck.problem(path: try files.save(Array(jpeg.prefix(jpeg.count - 40)), as: "cut.jpg"))?.hasPrefix(
                "corrupt JPEG") == true)
        let tooBig = ImageCheck.problem(path: files.path("ok.png"), maximumFileBytes: 100) ?? ""
        XCTAssertTrue(
            tooBig.hasPrefix("it has ") && tooBig.hasSuffix("bytes, more than the 100 an image file may have"), tooBig)
    }
}
