import Foundation
import Glibc
import MarqueeCore
import MarqueeRender
import MarqueeRuntime
import XCTest

/// Templates in a running session on the software backend's virtual clock: a clock element gets
/// a frame exactly when its text changes and none between; `update` with fields and `replace`.
final class TemplateSessionTests: XCTestCase {
    private func deckFile(clock format: String) -> String {
        let path = SessionHarness.scratch + "/clock-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(
            path,
            """
            {"templates": {"row": {"height": 80, "elements": [
               {"text": "name", "left": 16, "top": 10, "size": 24},
               {"clock": "\(format)", "right": 16, "top": 10, "width": 160, "size": 24, "align": "end"}]}},
             "sections": [{"cards": [{"id": "a", "template": "row", "fields": {"name": "Now"}}]}]}
            """)
        return path
    }

    func testASecondsClockDrawsOneFrameASecondAndNoneBetween() throws {
        let run = try SessionHarness.run("wait 5.5\nquit\n", deckPath: deckFile(clock: "%H:%M:%S"))
        XCTAssertEqual(run.status, 0)
        let targets = run.trace.map { $0["target"]!.number! }
        // The first frame, then one per second: 5 or 6 in 5.5 s, whatever the phase.
        XCTAssertTrue((6...7).contains(targets.count), "\(targets)")
        for (earlier, later) in zip(targets.dropFirst(), targets.dropFirst(2)) {
            XCTAssertEqual(later - earlier, 1, accuracy: 1.0 / 60 + 1e-9, "one frame per change of the text")
        }
    }

    func testAMinutesClockDrawsNoFrameWithinTheMinute() throws {
        let run = try SessionHarness.run("wait 30\nquit\n", deckPath: deckFile(clock: "%Y"))
        XCTAssertEqual(run.trace.count, 1, "the year does not change: one frame")
    }

    /// Two field updates of one card in one batch, and one of a card turned by a keyframe: once
    /// settled, the screen is the deck with the new fields shown from the start, pixel for pixel
    /// (the rows of the second update's element, or the turned card's, kept old pixels).
    func testFieldUpdatesEndOnTheScreenOfTheUpdatedDeck() throws {
        func deck(_ keyframes: String, _ fields: String) -> String {
            let path = SessionHarness.scratch + "/updated-\(UInt64.random(in: 0..<UInt64.max)).json"
            SessionHarness.writeFile(
                path,
                """
                {\(keyframes) "templates": {"row": {"height": 120, "elements": [
                   {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 8},
                   {"text": "name", "left": 20, "top": 10, "right": 200, "size": 32},
                   {"text": "status", "right": 16, "top": 60, "width": 160, "size": 20, "align": "end"}]}},
                 "sections": [{"cards": [{"id": "a", "template": "row", "fields": {\(fields)}}]}]}
                """)
            return path
        }
        let before = ##""name": "Amber", "status": "On time", "accent": "#2050c0""##
        let after = ##""name": "Omega", "status": "Delayed", "accent": "#e8a33d""##
        for keyframes in ["", #""keyframes": {"cards": {"rotation": [{"at": 0, "value": 0.05}]}},"#] {
            let expected = SessionHarness.scratch + "/expected-\(UInt64.random(in: 0..<UInt64.max)).png"
            let got = SessionHarness.scratch + "/got-\(UInt64.random(in: 0..<UInt64.max)).png"
            _ = try SessionHarness.run("wait idle\nsnapshot \(expected)\nquit\n", deckPath: deck(keyframes, after))
            let run = try SessionHarness.run(
                """
                update id:a {"fields": {"status": "Delayed", "name": "Omega"}}
                update id:a {"fields": {"accent": "#e8a33d"}}
                wait idle
                wait 1
                snapshot \(got)
                quit

                """, deckPath: deck(keyframes, before))
            XCTAssertFalse(run.replies.contains { $0["ok"]?.bool == false }, "\(run.replies)")
            let (wanted, shown) = (try PNGFileReader.read(expected), try PNGFileReader.read(got))
            var differing = 0
            for y in 0..<shown.height {
                for x in 0..<shown.width where shown.pixel(x: x, y: y) != wanted.pixel(x: x, y: y) { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "keyframes: \(keyframes)")
        }
    }

    func testUpdateMergesFieldsAndReplaceTakesTheWholeCard() throws {
        let run = try SessionHarness.run(
            """
            update id:a {"fields": {"name": "Later"}}
            wait idle
            replace id:a {"title": "Plain now"}
            update id:a {"fields": {"name": "x"}, "template": "nope"}
            quit

            """, deckPath: deckFile(clock: "%Y"))
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, true, false, true])
        XCTAssertEqual(
            answers[3]["error"]?.string,
            #"update: card "a" names template "nope", which the deck does not define (templates: "row", "default")"#)
    }

    /// A section given to `insert-section` is "as in a deck file": its cards name the running
    /// deck's templates, alone and in a batch, and a name the deck lacks is refused at insertion.
    func testInsertSectionTakesCardsNamingTheDecksTemplates() throws {
        let run = try SessionHarness.run(
            """
            insert-section 1 {"title": "Later", "cards": [{"id": "b", "template": "row", "fields": {"name": "B"}}]}
            batch
            insert-section 0 {"cards": [{"id": "c", "template": "row", "fields": {"name": "C"}}]}
            commit
            insert-section 0 {"cards": [{"id": "d", "template": "nope"}]}
            quit

            """, deckPath: deckFile(clock: "%Y"))
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, true, true, false, true])
        XCTAssertEqual(
            answers[4]["error"]?.string,
            #"insert-section: card "d" names template "nope", which the deck does not define (templates: "row", "default")"#
        )
    }
}

/// An image element in a running session with the real image store: the placeholder first (a
/// decode never holds a frame), then the picture, decoded on the store's threads.
final class ImageSessionTests: XCTestCase {
    /// A new scratch folder holding `photo.png`, a picture of one colour (#2080e0).
    private func folderWithPhoto(_ name: String, width: Int, height: Int) throws -> String {
        let folder = SessionHarness.scratch + "/\(name)-\(UInt64.random(in: 0..<UInt64.max))"
        mkdir(folder, 0o755)
        let picture = PixelBuffer(width: width, height: height)
        picture.withPixels { $0.update(repeating: 0xFF20_80E0) }
        try PNGFile.write(picture, to: folder + "/photo.png")
        return folder
    }

    func testTheStoresPictureReplacesThePlaceholder() throws {
        let folder = try folderWithPhoto("image-session", width: 40, height: 30)
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            """
            {"style": {"transitionDuration": 0.2},
             "templates": {"dish": {"height": 120, "elements": [
               {"image": "photo", "left": 10, "top": 10, "width": 80, "height": 60, "fit": "fill", "placeholder": "#ff0000"}]}},
             "sections": [{"cards": [{"id": "a", "template": "dish", "fields": {"photo": "photo.png"}}]}]}
            """)
        let first = folder + "/first.png"
        let later = folder + "/later.png"
        let run = try SessionHarness.run(
            "snapshot \(first)\nwait 1\nwait idle\nsnapshot \(later)\nquit\n", deckPath: deck,
            size: PixelSize(width: 400, height: 300))
        XCTAssertEqual(run.replies.filter { $0["ok"]?.bool == false }.count, 0, "\(run.replies)")
        // The card's top-left corner is at the layout's insets (40, 40); the image box inside it.
        let before = try PNGFileReader.read(first).pixel(x: 40 + 50, y: 40 + 40)
        let after = try PNGFileReader.read(later).pixel(x: 40 + 50, y: 40 + 40)
        XCTAssertEqual(before & 0xFF_FFFF, 0xFF_0000, "the placeholder while the picture is decoded")
        let (r, g, b) = ((after >> 16) & 0xFF, (after >> 8) & 0xFF, after & 0xFF)
        XCTAssertTrue(
            abs(Int(r) - 0x20) <= 8 && abs(Int(g) - 0x80) <= 8 && abs(Int(b) - 0xE0) <= 8, String(after, radix: 16))
    }

    func testWaitIdleWaitsForPicturesToDecodeAndFadeInAndForNoneThatFailed() throws {
        let folder = try folderWithPhoto("image-idle", width: 400, height: 300)
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            """
            {"style": {"transitionDuration": 0.2},
             "templates": {"dish": {"height": 120, "elements": [
               {"image": "photo", "left": 10, "top": 10, "width": 80, "height": 60, "fit": "fill", "placeholder": "#ff0000"}]}},
             "sections": [{"cards": [{"id": "a", "template": "dish", "fields": {"photo": "photo.png"}},
                                     {"id": "b", "template": "dish", "fields": {"photo": "missing.png"}}]}]}
            """)
        let shot = folder + "/idle.png"
        let run = try SessionHarness.run(
            "wait idle\nsnapshot \(shot)\nquit\n", deckPath: deck, size: PixelSize(width: 400, height: 400))
        XCTAssertEqual(run.replies.filter { $0["ok"] != nil }.map { $0["ok"]?.bool }, [true, true, true])
        XCTAssertTrue(run.replies.contains { $0["event"]?.string == "image-failed" }, "\(run.replies)")
        // The picture decoded and wholly faded in (a 400x300 PNG shrunk to 80x60: one colour),
        // the missing one's placeholder for good.
        let pixels = try PNGFileReader.read(shot)
        XCTAssertEqual(pixels.pixel(x: 40 + 50, y: 40 + 40) & 0xFF_FFFF, 0x20_80E0, "the picture, not the placeholder")
        let second = try XCTUnwrap(run.trace.last?["cards"]?.array?.first { $0["id"]?.string == "b" })
        let secondY = Int(try XCTUnwrap(second["y"]?.number))
        XCTAssertEqual(pixels.pixel(x: 40 + 50, y: secondY + 40) & 0xFF_FFFF, 0xFF_0000)
        // The fade ran on the virtual clock: frames until 0.2 s after the picture was first shown.
        let targets = run.trace.map { $0["target"]!.number! }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(targets.last), 0.2, "\(targets)")
    }

    /// A picture whose boxes are too big for `--image-cache` (2 MiB; 1000x600 needs 2.3 MiB,
    /// 900x600 2.1) is refused in the frame that asks for it: one `image-failed` event for the file
    /// (the first box's message), written before `wait idle` is answered. It was signalled on the
    /// store's pipe only, which a script on the virtual clock never polled: no event at all
    /// before `quit`, and one per box size.
    func testAPictureTooBigForTheCacheIsReportedOnceBeforeWaitIdleIsAnswered() throws {
        let folder = try folderWithPhoto("image-too-big", width: 200, height: 100)
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            """
            {"templates": {
               "p": {"height": 700, "elements": [{"image": "img", "left": 0, "top": 0, "width": 1000, "height": 600}]},
               "q": {"height": 700, "elements": [{"image": "img", "left": 0, "top": 0, "width": 900, "height": 600}]}},
             "sections": [{"cards": [{"id": "a", "template": "p", "fields": {"img": "photo.png"}},
                                     {"id": "b", "template": "q", "fields": {"img": "photo.png"}}]}]}
            """)
        let run = try SessionHarness.run(
            "wait idle\nquit\n", deckPath: deck, size: PixelSize(width: 1280, height: 1600)
        ) {
            $0.imageCacheMegabytes = 2
        }
        XCTAssertEqual(run.trace.last?["cards"]?.array?.count, 2, "both boxes were drawn")
        let kinds = run.replies.map { $0["event"]?.string ?? "ok" }
        XCTAssertEqual(kinds, ["image-failed", "ok", "ok"], "\(run.replies)")
        XCTAssertEqual(run.replies.first?["path"]?.string, folder + "/photo.png")
        XCTAssertEqual(
            run.replies.first?["error"]?.string,
            "the box 1000x600 needs 2.3 MiB, more than the whole --image-cache (2 MiB): raise --image-cache")
    }

    /// A picture on a card faded by a keyframe and on a stale card: after `wait idle` the picture
    /// at the card's opacity, not the placeholder (whose whole raster was kept for good).
    func testWaitIdleShowsPicturesOnFadedAndStaleCards() throws {
        let folder = try folderWithPhoto("image-faded", width: 400, height: 300)
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            """
            {"style": {"transitionDuration": 0.2, "background": "#000000"},
             "keyframes": {"cards": {"opacity": [{"at": 0, "value": 0.5}]}},
             "templates": {"dish": {"height": 120, "elements": [
               {"image": "photo", "left": 10, "top": 10, "width": 80, "height": 60, "fit": "fill", "placeholder": "#ff0000"}]}},
             "sections": [{"cards": [{"id": "a", "template": "dish", "fields": {"photo": "photo.png"}},
               {"id": "b", "template": "dish", "fields": {"photo": "photo.png"}, "expires": "2020-01-01T00:00:00Z"}]}]}
            """)
        let shot = folder + "/idle.png"
        let run = try SessionHarness.run(
            "wait idle\nsnapshot \(shot)\nquit\n", deckPath: deck, size: PixelSize(width: 400, height: 400))
        XCTAssertFalse(run.replies.contains { $0["ok"]?.bool == false }, "\(run.replies)")
        XCTAssertFalse(run.replies.contains { $0["event"]?.string == "image-failed" }, "\(run.replies)")
        let pixels = try PNGFileReader.read(shot)
        let second = try XCTUnwrap(run.trace.last?["cards"]?.array?.first { $0["id"]?.string == "b" })
        let secondY = Int(try XCTUnwrap(second["y"]?.number))
        // Over black: #2080e0 at half opacity, and at half of the stale opacity (0.45).
        for (y, alpha) in [(40 + 40, 0.5), (secondY + 40, 0.5 * 0.45)] {
            let pixel = pixels.pixel(x: 40 + 50, y: y)
            let got = [(pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF].map(Double.init)
            let expected = [0x20, 0x80, 0xE0].map { Double($0) * alpha }
            XCTAssertTrue(zip(got, expected).allSatisfy { abs($0 - $1) <= 3 }, "\(String(pixel, radix: 16)) at \(y)")
        }
    }

    func testSnapshotsOfADeckWithPhotosAfterWaitIdleAreTheSameEveryRun() throws {
        let root = #filePath.components(separatedBy: "/Tests/").first!
        let deck = root + "/docs/examples/cafe-menu.json"
        var shots: [PixelBuffer] = []
        var traces: [[JSONValue]] = []
        for script in ["wait idle", "wait idle", "wait 3\nwait idle"] {
            let shot = SessionHarness.scratch + "/cafe-\(UInt64.random(in: 0..<UInt64.max)).png"
            let run = try SessionHarness.run(
                "\(script)\nsnapshot \(shot)\nquit\n", deckPath: deck, size: PixelSize(width: 1280, height: 720))
            XCTAssertFalse(run.replies.contains { $0["ok"]?.bool == false }, "\(run.replies)")
            shots.append(try PNGFileReader.read(shot))
            traces.append(run.trace)
        }
        // After `wait idle` the six photos are shown whole, as after 3 s, and the frames that led
        // there are the same on every run however fast the photos were decoded.
        XCTAssertEqual(traces[0].count, traces[1].count)
        XCTAssertTrue(traces[0].elementsEqual(traces[1]) { "\($0)" == "\($1)" }, "the same frames every run")
        for index in 1..<3 {
            var differing = 0
            for y in 0..<720 {
                for x in 0..<1280 where shots[index].pixel(x: x, y: y) != shots[0].pixel(x: x, y: y) { differing += 1 }
            }
            XCTAssertEqual(differing, 0, "run \(index) differs from the first in \(differing) pixels")
        }
    }
}

/// A card going stale in a running session on the virtual clock: no frames while it waits for its
/// expiry, then the fade, frame by frame, to `staleAlpha`.
final class StaleSessionTests: XCTestCase {
    func testNoFramesUntilTheExpiryThenTheFade() throws {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // 1.5 s from now, to the millisecond.
        let expiry = Double(now.tv_sec) + Double(now.tv_nsec / 1_000_000) / 1000 + 1.5
        let seconds = Int(expiry)
        let millis = Int(((expiry - Double(seconds)) * 1000).rounded())
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let stamp = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), millis)
        let deck = SessionHarness.scratch + "/stale-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(
            deck, #"{"sections": [{"cards": [{"id": "a", "title": "Soon stale", "expires": "\#(stamp)"}]}]}"#)
        let run = try SessionHarness.run("wait 3\nquit\n", deckPath: deck)
        let frames = run.trace.map { ($0["target"]!.number!, $0["cards"]!.array![0]["alpha"]!.number!) }
        let fading = frames.filter { $0.1 < 1 }
        XCTAssertFalse(fading.isEmpty, "\(frames)")
        let firstFading = try XCTUnwrap(fading.first).0
        // The link's clock counts from the first frame, which came when the wall clock read `now`
        // (up to a little later): the expiry falls about 1.5 s in.
        XCTAssertEqual(firstFading, 1.5, accuracy: 0.1)
        let idle = frames.filter { $0.0 > 0.1 && $0.0 < firstFading - 0.05 }
        XCTAssertEqual(idle.count, 0, "no frames while waiting for the expiry: \(idle)")
        XCTAssertEqual(try XCTUnwrap(frames.last).1, 0.45, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(fading.count, 15, "the fade is drawn frame by frame over 0.35 s")
        XCTAssertLessThan(try XCTUnwrap(frames.last).0, firstFading + 0.5, "and then no more frames")
    }
}
