import Glibc
import MarqueeCore
import MarqueeRuntime
import XCTest

/// Overlays, alerts and `display` in a running session on the software backend's virtual clock:
/// a band's seconds clock costs one frame a second; an alert is refused with a clear error for an
/// unknown template or bad JSON, survives `load` and `apply`, and fades out on `alert-clear`;
/// no frames are rendered while the display is off.
final class SignageSessionTests: XCTestCase {
    static func deckFile(_ name: String, extraTemplates: String = "", overlays: Bool = true) -> String {
        let path = SessionHarness.scratch + "/\(name)-\(UInt64.random(in: 0..<UInt64.max)).json"
        let cards = (0..<30).map { "{\"id\": \"c\($0)\", \"title\": \"Card \($0)\"}" }.joined(separator: ",")
        SessionHarness.writeFile(
            path,
            """
            {"templates": {"bar": {"elements": [{"clock": "%H:%M:%S", "right": 16, "top": 10, "width": 160, "size": 24}]}
                           \(extraTemplates)},
             "style": {"transitionDuration": 0.3}, "layout": {"insets": 16},
             \(overlays ? #""overlays": [{"edge": "top", "height": 64, "template": "bar"}],"# : "")
             "sections": [{"cards": [\(cards)]}]}
            """)
        return path
    }

    func testABandSecondsClockDrawsOneFrameASecond() throws {
        let run = try SessionHarness.run("wait 4.5\nquit\n", deckPath: Self.deckFile("band"))
        let targets = run.trace.map { $0["target"]!.number! }
        XCTAssertTrue((5...6).contains(targets.count), "\(targets)")
        for (earlier, later) in zip(targets.dropFirst(), targets.dropFirst(2)) {
            XCTAssertEqual(later - earlier, 1, accuracy: 1.0 / 60 + 1e-9, "one frame per change of the text")
        }
        let band = try XCTUnwrap(run.trace.first?["cards"]?.array?.last)
        XCTAssertEqual(band["overlay"]?.number, 0)
        XCTAssertEqual(band["y"]?.number, 0)
        XCTAssertEqual(band["h"]?.number, 64)
        XCTAssertEqual(run.trace.first?["cards"]?.array?.first?["y"]?.number, 64 + 16, "content starts under the band")
    }

    func testAlertsAreCheckedAndSurviveLoadAndApply() throws {
        let note = #", "note": {"height": 100, "elements": [{"text": "message", "left": 10, "top": 10}]}"#
        let other = Self.deckFile("other", overlays: false)
        let run = try SessionHarness.run(
            """
            alert {"template": "nope", "fields": {"message": "x"}}
            alert {"template": "note", "fields": {
            alert {"template": "note", "colour": "red"}
            alert-clear
            alert {"template": "note", "fields": {"message": "Fire drill"}}
            scroll-to end duration=0.5
            wait idle
            load \(other)
            wait idle
            apply {"sections": [{"cards": [{"id": "only"}]}]}
            wait idle
            alert-clear
            wait idle
            quit

            """, deckPath: Self.deckFile("alerts", extraTemplates: note))
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(
            answers.map { $0["ok"]?.bool }, [false, false, false, false] + Array(repeating: true, count: 10))
        XCTAssertEqual(answers[0]["error"]?.string, #"alert: no template is named "nope" (templates: "bar", "note")"#)
        XCTAssertTrue(answers[1]["error"]!.string!.hasPrefix("alert: the message is not valid JSON"), "\(answers[1])")
        XCTAssertEqual(
            answers[2]["error"]?.string, "alert: alert.colour: unknown field (known fields: fields, template)")
        XCTAssertEqual(answers[3]["error"]?.string, "alert-clear: no alert is shown")
        func alert(_ frame: JSONValue) -> JSONValue? { frame["cards"]!.array!.first { $0["alert"]?.bool == true } }
        let withAlert = run.trace.filter { alert($0) != nil }
        XCTAssertFalse(withAlert.isEmpty)
        // The first frame shows it at opacity 0, the fade ends at full opacity.
        XCTAssertEqual(alert(withAlert.first!)?["alpha"]?.number, 0)
        XCTAssertTrue(withAlert.contains { alert($0)?["alpha"]?.number == 1 })
        // It stayed through the load (a deck without its template) and the apply: the frames of
        // the applied deck (card "only") show it at full opacity until alert-clear.
        let applied = run.trace.filter { $0["cards"]!.array!.contains { $0["id"]?.string == "only" } }
        XCTAssertFalse(applied.isEmpty)
        XCTAssertEqual(alert(applied.first!)?["alpha"]?.number, 1)
        XCTAssertNil(alert(run.trace.last!), "cleared at the end")
        // The scroll went on under it: its end was reached while the alert was shown.
        XCTAssertTrue(run.replies.contains { $0["event"]?.string == "scroll-finished" })
    }

    func testNoFramesWhileTheDisplayIsOff() throws {
        let run = try SessionHarness.run(
            """
            scroll-to end duration=1
            wait 0.2
            display off
            wait 3
            display on
            wait idle
            display
            quit

            """, deckPath: Self.deckFile("off"))
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, true, true, true, true, false, true])
        let targets = run.trace.map { $0["target"]!.number! }
        // Frames of the scroll until the display goes off at 0.2 s, then nothing until it comes
        // back 3 s later, though the scroll ran on and the clock ticked meanwhile; that frame
        // shows the scroll where it is by then: at its end. (The frame already asked of the link
        // when the command came, at 0.217, is still presented.)
        let afterOff = targets.filter { $0 > 0.25 }
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(afterOff.first), 3.2 - 1e-9, "\(targets)")
        let resumed = try XCTUnwrap(run.trace.first { $0["target"]!.number! > 0.25 })
        let beforeOff = try XCTUnwrap(run.trace.last { $0["target"]!.number! <= 0.25 })
        XCTAssertLessThan(beforeOff.offsetY, resumed.offsetY)
        XCTAssertEqual(resumed.offsetY, try XCTUnwrap(run.trace.last).offsetY, "the current frame, not a stale one")
        XCTAssertEqual(run.trace.filter { $0["target"]!.number! > 3.25 }.count, 0, "and then idle: \(targets)")
    }
}
