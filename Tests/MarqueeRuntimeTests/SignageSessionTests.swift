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

/// A deck's schedule in a running session on the virtual clock, started at a chosen wall-clock
/// time in Europe/Berlin: the sections change at the rule's minute (animated, as `apply`), the
/// display goes off at night, nothing is drawn between changes, and an edit made while part of
/// the deck is shown is kept.
final class ScheduleSessionTests: XCTestCase {
    private var savedTZ: String?

    override func setUp() {
        savedTZ = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "Europe/Berlin", 1)
        tzset()
    }

    override func tearDown() {
        if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
        tzset()
    }

    static func deckFile() -> String {
        let path = SessionHarness.scratch + "/schedule-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(
            path,
            """
            {"style": {"transitionDuration": 0.5},
             "schedule": [
               {"days": "mon-fri", "from": "06:00", "to": "11:00", "sections": ["breakfast"]},
               {"days": "mon-fri", "from": "11:00", "to": "15:00", "sections": ["Lunch"]},
               {"from": "23:00", "to": "06:00", "display": "off"}],
             "sections": [
               {"id": "breakfast", "title": "Breakfast", "cards": [{"id": "eggs"}, {"id": "toast"}]},
               {"title": "Lunch", "cards": [{"id": "soup"}, {"id": "pie"}]}]}
            """)
        return path
    }

    /// Seconds since the epoch of a UTC time.
    static func utc(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Double {
        var parts = tm()
        parts.tm_year = 2026 - 1900
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Double(timegm(&parts))
    }

    func cardIDs(_ frame: JSONValue) -> [String] { frame["cards"]!.array!.compactMap { $0["id"]?.string } }

    func testTheSectionsChangeAtTheRulesMinuteAndNothingIsDrawnBetween() throws {
        // Monday 23 November 2026, 10:59:00 in Berlin (09:59 UTC): breakfast, lunch a minute later.
        let run = try SessionHarness.run(
            """
            update id:eggs {"title": "Eggs, until 11"}
            wait 40
            insert id:toast {"id": "tea", "title": "Tea"}
            wait 40
            quit

            """, deckPath: Self.deckFile()
        ) { $0.virtualWallClockStart = Self.utc(11, 23, 9, 59) }
        XCTAssertEqual(run.replies.filter { $0["seq"] != nil && $0["event"] == nil }.count, 5)
        let first = try XCTUnwrap(run.trace.first)
        XCTAssertEqual(Set(cardIDs(first)), ["eggs", "toast"], "only breakfast at 10:59")
        // From 11:00 (60 s on) the lunch cards come in and the breakfast ones go, animated.
        let atEleven = run.trace.filter { $0["target"]!.number! >= 60 - 1e-9 }
        XCTAssertGreaterThan(atEleven.count, 3, "the change is animated over several frames")
        XCTAssertEqual(atEleven.first!["target"]!.number!, 60, accuracy: 1.0 / 60 + 1e-9, "at the rule's minute")
        XCTAssertTrue(atEleven.first!["cards"]!.array!.contains { $0["leaving"]?.bool == true })
        XCTAssertEqual(Set(cardIDs(try XCTUnwrap(run.trace.last))), ["soup", "pie"])
        // Nothing drawn between the edits' transitions and the change.
        let between = run.trace.filter {
            (2..<60).contains($0["target"]!.number!) && !(40..<42).contains($0["target"]!.number!)
        }
        XCTAssertEqual(between.count, 0, "\(between.map { $0["target"]!.number! })")
    }

    func testOneWakeUpPerRuleChangeOverADay() throws {
        // Monday 05:00 in Berlin to Tuesday 05:00 on the virtual clock: the rules start or end at
        // 06:00 (breakfast, and the night's end), 11:00, 15:00 and 23:00: four wake-ups, none
        // between, and frames only around them.
        let run = try SessionHarness.run(
            "wait 86400\nquit\n", deckPath: Self.deckFile()
        ) { $0.virtualWallClockStart = Self.utc(11, 23, 4, 0) }
        XCTAssertEqual(run.scheduleWakeUps, 4)
        // The display is off at 05:00: the first frame is 06:00's (trace times count from it),
        // then the changes at 11:00 and 15:00, and none after 23:00 (off again).
        let targets = run.trace.map { $0["target"]!.number! }
        let changes: [Double] = [0, 5 * 3_600, 9 * 3_600]
        for target in targets {
            XCTAssertTrue(
                changes.contains { target >= $0 - 1e-6 && target < $0 + 2 }, "a frame away from any change: \(target)")
        }
        for change in changes {
            XCTAssertTrue(targets.contains { abs($0 - change) < 0.05 }, "a frame at \(change)")
        }
    }

    func testTheDisplayGoesOffAtNight() throws {
        // Monday 22:59:50 in Berlin: every section is shown; at 23:00 the display goes off.
        let run = try SessionHarness.run(
            """
            wait 5
            scroll-to end duration=1
            wait 30
            quit

            """, deckPath: Self.deckFile()
        ) { $0.virtualWallClockStart = Self.utc(11, 23, 21, 59, 50) }
        let targets = run.trace.map { $0["target"]!.number! }
        XCTAssertTrue(cardIDs(try XCTUnwrap(run.trace.last)).contains("pie"), "the lunch section is shown")
        // The scroll's frames, then none after 23:00 (10 s in).
        XCTAssertGreaterThan(targets.filter { $0 > 5 }.count, 30)
        XCTAssertLessThanOrEqual(try XCTUnwrap(targets.last), 10 + 1.0 / 60 + 1e-9, "no frames after 23:00: \(targets)")
    }

    func testACardInsertedWhilePartIsShownIsKeptWhenTheRuleEnds() throws {
        // Monday 14:59:30 in Berlin: lunch only; at 15:00 every section, with the card inserted.
        let run = try SessionHarness.run(
            """
            insert id:pie {"id": "cake", "title": "Cake"}
            scroll-to id:eggs
            wait 40
            scroll-to id:eggs duration=0
            scroll-to id:cake duration=0
            quit

            """, deckPath: Self.deckFile()
        ) { $0.virtualWallClockStart = Self.utc(11, 23, 13, 59, 30) }
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, false, true, true, true, true])
        XCTAssertEqual(answers[1]["error"]?.string?.contains("eggs"), true, "breakfast is hidden at lunch")
    }
}

/// check-deck's warning for a schedule rule naming a section the deck lacks.
final class ScheduleCheckTests: XCTestCase {
    func testARuleNamingNoSectionIsAWarning() throws {
        let deck = try DeckDecoder.decode(
            #"""
            {"schedule": [{"from": "06:00", "to": "11:00", "sections": ["breakfast", "Lunch", "brunch"]}],
             "sections": [{"id": "breakfast", "cards": []}, {"title": "Lunch", "cards": []}]}
            """#)
        XCTAssertEqual(
            ScheduleCheck.warnings(in: deck).map(\.description),
            [#"schedule[0].sections[2]: no section has the id or title "brunch": nothing is shown for it"#])
    }
}
