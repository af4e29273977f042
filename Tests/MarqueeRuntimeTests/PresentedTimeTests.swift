import MarqueeCore
import XCTest

@testable import MarqueeRuntime

/// `presented` on the events that end an animation: when its first frame was shown, so a feed can
/// log when the screen really changed. The software backend's virtual clock starts at 0 and its
/// first frame is at 0, so the trace's times (seconds since the first frame) are the clock's own.
final class PresentedTimeTests: XCTestCase {
    func testEachEventNamesTheFirstFrameThatShowedItsChange() throws {
        let script = """
            wait 0.5
            scroll-to 10 duration=0.5
            wait idle
            wait 0.3
            batch
            insert 11 {"id": "fresh", "title": "New"}
            commit
            wait idle
            wait 0.25
            appear stagger=0 duration=0.2
            wait idle
            """
        let run = try SessionHarness.run(script, size: PixelSize(width: 640, height: 480))
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.map { $0["event"]?.string }, ["scroll-finished", "batch-finished", "appear-finished"])
        let targets = run.trace.map { $0["target"]!.number! }

        // The scroll: its first frame is the last one still at the start (it draws progress 0).
        let start = run.trace[0].offsetY
        let firstScrolled = try XCTUnwrap(run.trace.firstIndex { $0.offsetY != start })
        XCTAssertEqual(events[0]["presented"]?.number, targets[firstScrolled - 1])
        XCTAssertGreaterThanOrEqual(targets[firstScrolled - 1], 0.5, "not before the command")

        // The batch: the first frame that lists the inserted card.
        let firstWithCard = try XCTUnwrap(
            run.trace.firstIndex { $0["cards"]!.array!.contains { $0["id"]?.string == "fresh" } })
        XCTAssertEqual(events[1]["presented"]?.number, targets[firstWithCard])

        // The appear sequence: the first frame after the batch with a card at alpha 0.
        let firstFaded = try XCTUnwrap(
            run.trace.indices.first { index in
                index > firstWithCard && run.trace[index]["cards"]!.array!.contains { $0["alpha"]?.number == 0 }
            })
        XCTAssertEqual(events[2]["presented"]?.number, targets[firstFaded])
        // Each change was shown after the one before it, and the waits between them kept the screen idle.
        XCTAssertLessThan(events[0]["presented"]!.number!, events[1]["presented"]!.number!)
        XCTAssertLessThan(events[1]["presented"]!.number!, events[2]["presented"]!.number!)
    }

    func testAScrollReplacedBeforeAnyFrameWasNeverPresented() throws {
        let run = try SessionHarness.run(
            "scroll-to 10 duration=1\nscroll-to 2 duration=0.2\nwait idle\n", size: PixelSize(width: 640, height: 480))
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0]["interrupted"]?.bool, true)
        XCTAssertEqual(events[0]["presented"], JSONValue.null, "no frame ever showed the first scroll")
        XCTAssertNotNil(events[1]["presented"]?.number)
    }
}
