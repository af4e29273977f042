import MarqueeCore
import MarqueeRender
import MarqueeRuntime
import MarqueeTestSupport
import XCTest

final class SessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    /// The demo deck's layout at the test size, to check the trace against.
    var layout: CollectionLayout { CollectionLayout(deck: DemoDeck.make(), viewport: size) }

    func testScriptedScrollFollowsTheCurveAtEachTargetTime() throws {
        let run = try SessionHarness.run("scroll-to end duration=1\nwait idle\nquit\n", size: size)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.replies.count, 4)
        XCTAssertEqual(run.replies[0], try JSONParser.parse(#"{"seq":1,"ok":true}"#))
        XCTAssertEqual(run.replies[1]["event"]?.string, "scroll-finished")
        XCTAssertEqual(run.replies[1]["seq"]?.number, 1)
        XCTAssertEqual(run.replies[1]["offset"]?.number, layout.maxOffset)
        XCTAssertEqual(run.replies[2], try JSONParser.parse(#"{"seq":2,"ok":true}"#))
        XCTAssertEqual(run.replies[3], try JSONParser.parse(#"{"seq":3,"ok":true}"#))

        let frames = run.trace
        // Frame 0 shows the deck; frame 1 starts the scroll (f = 0); the last ends it exactly.
        XCTAssertEqual(frames[0]["timestamp"]?.number, 0)
        XCTAssertEqual(frames[1].offsetY, 0)
        let start = frames[1]["target"]!.number!
        let maxOffset = layout.maxOffset
        for (number, frame) in frames.enumerated() {
            XCTAssertEqual(frame["frame"]?.number, Double(number))
            let target = frame["target"]!.number!
            XCTAssertEqual(target - frame["timestamp"]!.number!, 1.0 / 60, accuracy: 1e-9)
            guard number >= 1 else { continue }
            let f = min(1, (target - start) / 1)
            XCTAssertEqual(frame.offsetY, maxOffset * f * f * (3 - 2 * f), accuracy: 0.5, "frame \(number)")
        }
        XCTAssertEqual(frames.last?.offsetY, maxOffset, "the final offset is exact")
        XCTAssertEqual(frames.count, 62, "frame 0, then f = 0, 1/60, ..., 1")
    }

    func testTraceListsExactlyTheCardsInTheViewport() throws {
        let run = try SessionHarness.run("scroll-to 30 duration=0.5 curve=linear\nwait idle\n", size: size)
        for frame in run.trace {
            var expected: [LayoutItem] = []
            layout.visibleItems(atOffset: frame.offsetY, into: &expected)
            let drawn = frame["cards"]!.array!
            XCTAssertEqual(drawn.count, expected.count)
            for (entry, item) in zip(drawn, expected) {
                switch item {
                case .card(let index, _, _, let rect):
                    XCTAssertEqual(entry["index"]?.number, Double(index))
                    XCTAssertEqual(entry["y"]?.number, rect.y - frame.offsetY)
                    XCTAssertEqual(entry["h"]?.number, rect.height)
                case .header(let section, _):
                    XCTAssertEqual(entry["header"]?.number, Double(section))
                }
            }
        }
    }

    func testEveryLineGetsOneReplyAndBadLinesChangeNothing() throws {
        let script = """
            scroll-to nowhere
            # a comment

            scroll-to 9999
            scroll-to 5 duration=0
            wait idle
            flip
            scroll-to 1:999
            wait idle
            """
        let run = try SessionHarness.run(script, size: size)
        let replies = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(replies.map { $0["seq"]?.number }, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(replies.map { $0["ok"]?.bool }, [false, false, true, true, false, false, true])
        XCTAssertTrue(replies[1]["error"]!.string!.contains("out of range"))
        let expected = layout.frame(ofCard: 5)!.y - 28
        XCTAssertEqual(run.trace.last?.offsetY, expected, "only the valid scroll moved the view")
    }

    func testRetargetMidScrollDoesNotJump() throws {
        let run = try SessionHarness.run(
            "scroll-to end duration=1\nwait 0.5\nscroll-to start duration=0.5\nwait idle\n", size: size)
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0]["seq"]?.number, 1)
        XCTAssertEqual(events[0]["interrupted"]?.bool, true)
        XCTAssertEqual(events[1]["seq"]?.number, 3)
        XCTAssertEqual(events[1]["interrupted"]?.bool, false)
        let offsets = run.trace.map(\.offsetY)
        let peak = offsets.max()!
        let peakIndex = offsets.firstIndex(of: peak)!
        XCTAssertEqual(offsets[peakIndex + 1], peak, "the new scroll's first frame starts where the old one was")
        for (a, b) in zip(offsets, offsets.dropFirst()) { XCTAssertLessThan(abs(b - a), layout.maxOffset / 10) }
        XCTAssertEqual(offsets.last, 0)
    }

    func testWaitAdvancesTheVirtualClock() throws {
        let run = try SessionHarness.run("wait 2\nscroll-to 10 duration=0.25\nwait idle\n", size: size)
        let started = run.trace[1]["target"]!.number!
        XCTAssertGreaterThanOrEqual(started, 2)
        XCTAssertLessThan(started, 2 + 2.0 / 60)
        XCTAssertEqual(run.trace.count, 1 + 1 + 15, "the first frame, the start, then 0.25 s at 60 Hz")
    }

    func testSnapshotWritesThePresentedFrame() throws {
        let path = SessionHarness.scratch + "/snap.png"
        let run = try SessionHarness.run(
            "scroll-to 3 duration=0\nsnapshot \(path)\nsnapshot /nonexistent/x.png\n", size: size)
        XCTAssertEqual(run.replies.filter { $0["event"] == nil }.map { $0["ok"]?.bool }, [true, true, false])
        let image = try XCTUnwrap(try? PNGFileReader.read(path))
        XCTAssertEqual(image.width, 640)
        XCTAssertEqual(image.height, 480)
        // The file shows what was presented: the demo deck at the trace's last offset, drawn again
        // here by the renderer, matches it (ImageComparison's tolerance); the deck's top does not.
        let presentedOffset = try XCTUnwrap(run.trace.last?.offsetY)
        XCTAssertGreaterThan(presentedOffset, 0)
        let presented = try ImageComparison.compare(try render(atOffset: presentedOffset), withReference: path)
        XCTAssertTrue(presented.matches, "\(presented)")
        XCTAssertFalse(try ImageComparison.compare(try render(atOffset: 0), withReference: path).matches)
    }

    /// The demo deck at the test size and a scroll offset, as the renderer draws it.
    func render(atOffset offset: Double) throws -> PixelBuffer {
        let deck = DemoDeck.make()
        var scene = Scene(deck: deck, viewport: size)
        _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 1)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1), into: &list)
        let buffer = PixelBuffer(width: size.width, height: size.height)
        try Renderer().render(list, deck: deck, into: buffer)
        return buffer
    }

    func testLoadKeepsTheOldDeckWhenTheNewOneIsBad() throws {
        let bad = SessionHarness.scratch + "/bad.json"
        let good = SessionHarness.scratch + "/good.json"
        SessionHarness.writeFile(bad, #"{"sections": [{"cards": [{"id": "x"}, {"id": "x"}]}]}"#)
        SessionHarness.writeFile(
            good, #"{"sections": [{"title": "Only", "cards": [{"id": "solo", "title": "Solo"}]}]}"#)
        let run = try SessionHarness.run(
            "load \(bad)\nload /missing.json\nwait idle\nload \(good)\nwait idle\n", size: size)
        let replies = run.replies
        XCTAssertEqual(replies[0]["ok"]?.bool, false)
        XCTAssertTrue(replies[0]["error"]!.string!.contains("sections[0].cards[1].id: duplicate id \"x\""))
        XCTAssertEqual(replies[1]["ok"]?.bool, false)
        XCTAssertEqual(run.trace.count, 2, "bad loads drew nothing new")
        let ids = run.trace.last!["cards"]!.array!.compactMap { $0["id"]?.string }
        XCTAssertEqual(ids, ["solo"])
    }

    func testEndOfInputFinishesTheAnimationThenExits() throws {
        let run = try SessionHarness.run("scroll-to end duration=0.5", size: size)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.replies.last?["event"]?.string, "scroll-finished")
        XCTAssertEqual(run.trace.last?.offsetY, layout.maxOffset)
    }
}

final class EditSessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    func cards(_ frame: JSONValue, id: String) -> [JSONValue] {
        frame["cards"]!.array!.filter { $0["id"]?.string == id }
    }

    func testInsertAndDeleteShowFrameByFrameInTheTrace() throws {
        let script = """
            insert 1 {"id": "new", "title": "New # with a hash", "color": "#ffeeaa"}
            wait idle
            delete id:new
            wait idle
            """
        let run = try SessionHarness.run(script, size: size)
        XCTAssertEqual(run.replies.map { $0["ok"]?.bool }, [true, true, true, true])
        let withNew = run.trace.filter { !cards($0, id: "new").isEmpty }
        let growing = withNew.compactMap { cards($0, id: "new").first { $0["leaving"] == nil } }
        XCTAssertEqual(growing.first?["scale"]?.number, 0.01)
        XCTAssertEqual(growing.first?["alpha"]?.number, 0)
        let scales = growing.map { $0["scale"]!.number! }
        XCTAssertEqual(scales, scales.sorted(), "it only grows")
        XCTAssertEqual(scales.last, 1)
        // 0.35 s at 60 Hz: the first frame at f = 0, then 21 frames to f = 1.
        XCTAssertEqual(growing.count, 22)
        let falling = withNew.compactMap { cards($0, id: "new").first { $0["leaving"]?.bool == true } }
        XCTAssertFalse(falling.isEmpty)
        let ys = falling.map { $0["y"]!.number! }
        XCTAssertEqual(ys, ys.sorted(), "it falls")
        XCTAssertEqual(falling.first?["alpha"]?.number, 1)
        XCTAssertNil(run.trace.last.map { cards($0, id: "new").first }!, "gone at the end")
    }

    func testDisplacedCardsNeverJumpMoreThanTheCurveAllows() throws {
        let run = try SessionHarness.run(
            "insert 0 {\"id\": \"a\"}\nwait 0.1\ninsert 0 {\"id\": \"b\"}\nwait 0.1\ndelete 1\nwait idle\n", size: size)
        var previous: [String: Double] = [:]
        // The largest step smoothstep takes in one 1/60 s frame of a 0.35 s tween, times the
        // largest distance here (two card pitches of 132).
        let limit = 1.5 / (0.35 * 60) * 2 * 132 + 1
        for frame in run.trace.dropFirst() {
            for card in frame["cards"]!.array! where card["leaving"] == nil {
                guard let id = card["id"]?.string else { continue }
                let y = card["y"]!.number! + frame.offsetY
                if let before = previous[id] {
                    XCTAssertLessThan(abs(y - before), limit, "\(id) in frame \(frame["frame"]!)")
                }
                previous[id] = y
            }
        }
    }

    func testBadEditsAreAnsweredAndChangeNothing() throws {
        let run = try SessionHarness.run(
            """
            insert 0 {"id": "dep-1"}
            insert 99 {"id": "x"}
            insert 0 {"id": "x", "color": "red"}
            insert 0 {"id":
            delete id:nope
            move 0 999
            update 0 {"id": "other"}
            wait idle
            """, size: size)
        let replies = run.replies
        XCTAssertEqual(replies.map { $0["ok"]?.bool }, [false, false, false, false, false, false, false, true])
        XCTAssertTrue(replies[0]["error"]!.string!.contains("already exists"))
        XCTAssertTrue(replies[2]["error"]!.string!.contains("card.color"))
        XCTAssertTrue(replies[3]["error"]!.string!.contains("not valid JSON"))
        XCTAssertEqual(run.trace.count, 1, "nothing changed, nothing drawn")
    }
}

final class BatchSessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    func testABatchIsAllOrNothingWithOneEvent() throws {
        let script = """
            batch
            insert 0 {"id": "a"}
            delete 5
            move 0 2
            commit
            wait idle
            batch
            insert 0 {"id": "b"}
            delete 9999
            commit
            wait idle
            batch
            wait 1
            insert 0 {"id": "c"}
            commit
            commit
            """
        let run = try SessionHarness.run(script, size: size)
        let replies = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(
            replies.map { $0["ok"]?.bool },
            [true, true, true, true, true, true, true, true, true, false, true, true, false, true, false, false])
        XCTAssertTrue(replies[9]["error"]!.string!.contains("line 9 (delete)"))
        XCTAssertTrue(replies[14]["error"]!.string!.contains("wait cannot stand inside a batch"))
        XCTAssertTrue(replies[15]["error"]!.string!.contains("no batch is open"))
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.map { $0["event"]?.string }, ["batch-finished"])
        XCTAssertEqual(events.first?["seq"]?.number, 5)
        let ids = Set(run.trace.flatMap { $0["cards"]!.array!.compactMap { $0["id"]?.string } })
        XCTAssertTrue(ids.contains("a"))
        XCTAssertFalse(ids.contains("b"), "the failed batch changed nothing")
        XCTAssertFalse(ids.contains("c"))
    }

    func testAppearAtStartAndOnCommand() throws {
        let run = try SessionHarness.run(
            "wait idle\nappear stagger=0.05 duration=0.2\nwait idle\n", size: size,
            configure: { $0.appearAtStart = true })
        XCTAssertEqual(
            run.trace.first?["cards"]?.array?.first?["alpha"]?.number, 0, "the first frame starts the sequence")
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.map { $0["event"]?.string }, ["appear-finished"])
        XCTAssertEqual(events.first?["seq"]?.number, 2)
    }
}
