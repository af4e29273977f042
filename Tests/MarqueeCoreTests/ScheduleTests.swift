import Glibc
import MarqueeCore
import XCTest

/// Schedules in local time through the C library, with `TZ` set to Europe/Berlin: a rule holds
/// from its minute, rules run across midnight, the next change is the next rule boundary (the
/// one timer) across the DST changes, and rules are checked when decoded.
final class ScheduleTests: XCTestCase {
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

    /// Seconds since the epoch of a UTC time (timegm: independent of the code under test).
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0) -> Double {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Double(timegm(&parts))
    }

    static let rules: [ScheduleRule] = {
        let deck = try! DeckDecoder.decode(
            """
            {"schedule": [
               {"days": "mon-fri", "from": "06:00", "to": "11:00", "sections": ["breakfast"]},
               {"days": "mon-fri", "from": "11:00", "to": "15:00", "sections": ["lunch"]},
               {"from": "23:00", "to": "06:00", "display": "off"}],
             "sections": []}
            """)
        return deck.schedule
    }()

    func testARuleHoldsFromItsMinuteToItsEnd() {
        // Monday 23 November 2026; Berlin is UTC+1 (CET).
        let state = { (time: Double) in Schedule.state(Self.rules, at: time) }
        XCTAssertEqual(state(Self.utc(2026, 11, 23, 4, 59, 59)), ScheduleState(displayOff: true))
        XCTAssertEqual(state(Self.utc(2026, 11, 23, 5, 0)), ScheduleState(sections: ["breakfast"]), "06:00 local")
        XCTAssertEqual(state(Self.utc(2026, 11, 23, 9, 59, 59)), ScheduleState(sections: ["breakfast"]))
        XCTAssertEqual(state(Self.utc(2026, 11, 23, 10, 0)), ScheduleState(sections: ["lunch"]), "11:00 local")
        XCTAssertEqual(state(Self.utc(2026, 11, 23, 14, 0)), ScheduleState(), "15:00: every section")
        // Saturday: no weekday rules, but the night still turns the display off.
        XCTAssertEqual(state(Self.utc(2026, 11, 28, 8, 0)), ScheduleState())
        XCTAssertEqual(state(Self.utc(2026, 11, 28, 22, 30)), ScheduleState(displayOff: true))
    }

    func testARuleRunsAcrossMidnightFromTheDayItStarts() {
        let rules = [ScheduleRule(days: [5], from: 23 * 60, to: 6 * 60, action: .displayOff)]  // Friday night
        // Friday 27 November 23:30 local, Saturday 03:00 and 05:59, not Saturday 06:00 nor 23:30.
        XCTAssertTrue(Schedule.state(rules, at: Self.utc(2026, 11, 27, 22, 30)).displayOff)
        XCTAssertTrue(Schedule.state(rules, at: Self.utc(2026, 11, 28, 2, 0)).displayOff)
        XCTAssertTrue(Schedule.state(rules, at: Self.utc(2026, 11, 28, 4, 59)).displayOff)
        XCTAssertFalse(Schedule.state(rules, at: Self.utc(2026, 11, 28, 5, 0)).displayOff)
        XCTAssertFalse(Schedule.state(rules, at: Self.utc(2026, 11, 28, 22, 30)).displayOff)
        XCTAssertFalse(Schedule.state(rules, at: Self.utc(2026, 11, 26, 23, 30)).displayOff, "not after Thursday")
        // The next change after Friday 22:00 is 23:00, then Saturday 06:00.
        XCTAssertEqual(Schedule.nextChange(rules, after: Self.utc(2026, 11, 27, 21, 0)), Self.utc(2026, 11, 27, 22, 0))
        XCTAssertEqual(Schedule.nextChange(rules, after: Self.utc(2026, 11, 27, 22, 0)), Self.utc(2026, 11, 28, 5, 0))
    }

    func testTheNextChangeFollowsTheDSTChanges() {
        // Sunday 29 March 2026: at 02:00 CET the clocks go to 03:00 CEST (UTC+2). After 00:30
        // local (23:30 UTC on Saturday) the next boundary is 06:00 CEST, 04:00 UTC: 4.5 h later,
        // not 5.5.
        let spring = Self.utc(2026, 3, 28, 23, 30)
        XCTAssertEqual(Schedule.nextChange(Self.rules, after: spring), Self.utc(2026, 3, 29, 4, 0))
        XCTAssertEqual(Schedule.state(Self.rules, at: Self.utc(2026, 3, 29, 3, 59)), ScheduleState(displayOff: true))
        XCTAssertEqual(Schedule.state(Self.rules, at: Self.utc(2026, 3, 29, 4, 0)), ScheduleState())
        // Sunday 25 October 2026: at 03:00 CEST the clocks go back to 02:00 CET. 06:00 CET is
        // 05:00 UTC; from 00:30 CEST (22:30 UTC) that is 6.5 h.
        let autumn = Self.utc(2026, 10, 24, 22, 30)
        XCTAssertEqual(Schedule.nextChange(Self.rules, after: autumn), Self.utc(2026, 10, 25, 5, 0))
        // Monday after: breakfast at 06:00 CET, 05:00 UTC.
        XCTAssertEqual(
            Schedule.state(Self.rules, at: Self.utc(2026, 10, 26, 5, 0)), ScheduleState(sections: ["breakfast"]))
        XCTAssertEqual(Schedule.state(Self.rules, at: Self.utc(2026, 10, 26, 4, 59)), ScheduleState(displayOff: true))
    }

    /// On the night the clocks skip 02:00-03:00 (Sunday 29 March 2026 in Berlin), a rule from a
    /// skipped time starts at the same distance past the jump, and the state agrees with the
    /// wake-up: "02:30" is 03:30 CEST (01:30 UTC), not already at 03:10 as the wall clock's
    /// minutes had it; an end in the skipped hour ("02:30" after midnight) is 03:30 too.
    func testARuleFromASkippedTimeStartsAsFarPastTheJump() {
        let sunday = [ScheduleRule(days: [0], from: 2 * 60 + 30, to: 4 * 60, action: .sections(["a"]))]
        let state = { (time: Double) in Schedule.state(sunday, at: time).sections }
        XCTAssertNil(state(Self.utc(2026, 3, 29, 0, 59)), "01:59 CET")
        XCTAssertNil(state(Self.utc(2026, 3, 29, 1, 10)), "03:10 CEST")
        XCTAssertNil(state(Self.utc(2026, 3, 29, 1, 29, 59)), "03:29:59 CEST")
        XCTAssertEqual(state(Self.utc(2026, 3, 29, 1, 30)), ["a"], "03:30 CEST")
        XCTAssertEqual(state(Self.utc(2026, 3, 29, 1, 59, 59)), ["a"], "03:59:59 CEST")
        XCTAssertNil(state(Self.utc(2026, 3, 29, 2, 0)), "04:00 CEST")
        XCTAssertEqual(Schedule.nextChange(sunday, after: Self.utc(2026, 3, 29, 1, 10)), Self.utc(2026, 3, 29, 1, 30))
        // Saturday 23:00 to "02:30": held until 03:30 CEST, and the timer wakes then.
        let night = [ScheduleRule(days: [6], from: 23 * 60, to: 2 * 60 + 30, action: .displayOff)]
        XCTAssertTrue(Schedule.state(night, at: Self.utc(2026, 3, 28, 22, 0)).displayOff, "23:00 CET")
        XCTAssertTrue(Schedule.state(night, at: Self.utc(2026, 3, 29, 1, 10)).displayOff, "03:10 CEST")
        XCTAssertFalse(Schedule.state(night, at: Self.utc(2026, 3, 29, 1, 30)).displayOff, "03:30 CEST")
        XCTAssertEqual(Schedule.nextChange(night, after: Self.utc(2026, 3, 29, 1, 10)), Self.utc(2026, 3, 29, 1, 30))
        // The same rules on an ordinary Sunday a week later keep their wall-clock times.
        XCTAssertNil(state(Self.utc(2026, 4, 5, 0, 29)), "02:29 CEST")
        XCTAssertEqual(state(Self.utc(2026, 4, 5, 0, 30)), ["a"], "02:30 CEST")
    }

    /// On the night the clocks go back from 03:00 CEST to 02:00 CET (Sunday 25 October 2026 in
    /// Berlin), 02:30 happens twice and a rule takes the second, 02:30 CET (01:30 UTC), whether
    /// the rule is alone or after or before a rule ending then. glibc's `mktime` settled it with
    /// the offset of its previous call: a rule from 02:30 alone started at 02:30 CET, after a rule
    /// ending at 02:30 at 02:30 CEST, and a rule ending at 02:30 alone ended at 02:30 CEST.
    func testATimeThatHappensTwiceIsTheSecondWhateverTheOtherRules() {
        let early = ScheduleRule(days: [0], from: 0, to: 2 * 60 + 30, action: .sections(["early"]))
        let late = ScheduleRule(days: [0], from: 2 * 60 + 30, to: 5 * 60, action: .sections(["late"]))
        let firstPass = Self.utc(2026, 10, 25, 0, 30)  // 02:30 CEST
        let secondPass = Self.utc(2026, 10, 25, 1, 30)  // 02:30 CET
        for rules in [[late], [early, late], [late, early]] {
            let names = rules.map { $0.hours }
            XCTAssertNil(Schedule.state(rules, at: firstPass).sections?.first { $0 == "late" }, "\(names)")
            XCTAssertNil(
                Schedule.state(rules, at: secondPass - 1).sections?.first { $0 == "late" }, "02:29:59 CET, \(names)")
            XCTAssertEqual(Schedule.state(rules, at: secondPass).sections, ["late"], "02:30 CET, \(names)")
        }
        for rules in [[early], [late, early], [early, late]] {
            let names = rules.map { $0.hours }
            XCTAssertEqual(Schedule.state(rules, at: firstPass).sections, ["early"], "02:30 CEST, \(names)")
            XCTAssertEqual(Schedule.state(rules, at: secondPass - 1).sections, ["early"], "02:29:59 CET, \(names)")
            XCTAssertNotEqual(Schedule.state(rules, at: secondPass).sections, ["early"], "02:30 CET, \(names)")
            // From 01:00 CEST, the one timer wakes at the second 02:30, not the first.
            XCTAssertEqual(
                Schedule.nextChange(rules, after: Self.utc(2026, 10, 24, 23, 0)), secondPass, "\(names)")
        }
    }

    /// Equal times are 24 hours from `from`, whatever the time: 00:00 to 00:00 the day named,
    /// 10:00 to 10:00 until 10:00 the next day, 24:00 to 24:00 the day after the one named (its
    /// 24:00 is the next day's 00:00). Only 00:00 was taken before.
    func testEqualTimesAreTwentyFourHoursFromTheStart() throws {
        func rules(_ from: String, _ to: String) throws -> [ScheduleRule] {
            try DeckDecoder.decode(
                #"{"schedule": [{"days": "mon", "from": "\#(from)", "to": "\#(to)", "display": "off"}], "sections": []}"#
            ).schedule
        }
        let off = { (rules: [ScheduleRule], time: Double) in Schedule.state(rules, at: time).displayOff }
        // Monday 23 November 2026, CET (UTC+1).
        let whole = try rules("00:00", "00:00")
        XCTAssertFalse(off(whole, Self.utc(2026, 11, 22, 22, 59)), "Sunday 23:59")
        XCTAssertTrue(off(whole, Self.utc(2026, 11, 22, 23, 0)), "Monday 00:00")
        XCTAssertTrue(off(whole, Self.utc(2026, 11, 23, 22, 59)), "Monday 23:59")
        XCTAssertFalse(off(whole, Self.utc(2026, 11, 23, 23, 0)), "Tuesday 00:00")
        let ten = try rules("10:00", "10:00")
        XCTAssertFalse(off(ten, Self.utc(2026, 11, 23, 8, 59)), "Monday 09:59")
        XCTAssertTrue(off(ten, Self.utc(2026, 11, 23, 9, 0)), "Monday 10:00")
        XCTAssertTrue(off(ten, Self.utc(2026, 11, 24, 8, 59)), "Tuesday 09:59")
        XCTAssertFalse(off(ten, Self.utc(2026, 11, 24, 9, 0)), "Tuesday 10:00")
        XCTAssertEqual(Schedule.nextChange(ten, after: Self.utc(2026, 11, 23, 9, 0)), Self.utc(2026, 11, 24, 9, 0))
        let late = try rules("24:00", "24:00")
        XCTAssertFalse(off(late, Self.utc(2026, 11, 23, 22, 59)), "Monday 23:59")
        XCTAssertTrue(off(late, Self.utc(2026, 11, 23, 23, 0)), "Tuesday 00:00")
        XCTAssertTrue(off(late, Self.utc(2026, 11, 24, 22, 59)), "Tuesday 23:59")
        XCTAssertFalse(off(late, Self.utc(2026, 11, 24, 23, 0)), "Wednesday 00:00")
    }

    func testOneWakeUpPerRuleBoundaryAndNoneBetween() {
        // Follow the timer through a week: every wake-up is a rule's start or end, and each
        // weekday has 06:00, 11:00, 15:00, 23:00 (06:00 ends the night too), a weekend day 06:00
        // and 23:00.
        var time = Self.utc(2026, 11, 23, 0, 0)  // Monday 01:00 local
        let end = time + 7 * 86_400
        var wakeUps: [Double] = []
        while let next = Schedule.nextChange(Self.rules, after: time), next < end {
            XCTAssertGreaterThan(next, time)
            wakeUps.append(next)
            time = next
        }
        XCTAssertEqual(wakeUps.count, 5 * 4 + 2 * 2)
        for wakeUp in wakeUps {
            var seconds = time_t(wakeUp)
            var local = tm()
            localtime_r(&seconds, &local)
            XCTAssertTrue(
                [6, 11, 15, 23].contains(local.tm_hour) && local.tm_min == 0 && local.tm_sec == 0, "\(local)")
        }
    }

    func testBadRulesAreReportedAtTheirFields() {
        func problems(_ schedule: String) -> [String] {
            do {
                _ = try DeckDecoder.decode("{\"schedule\": \(schedule), \"sections\": []}")
                return []
            } catch {
                return error.problems.map { "\($0.path): \($0.message)" }
            }
        }
        XCTAssertEqual(
            problems(#"[{"days": "mon-fry", "from": "06:00", "to": "25:00", "sections": ["a"]}]"#),
            [
                #"schedule[0].days: "mon-fry" is not a list of days ("mon-fri", "sat,sun", "daily")"#,
                #"schedule[0].to: "25:00" is not a local time ("HH:MM", 00:00 to 24:00)"#,
            ])
        XCTAssertEqual(
            problems(#"[{"from": "06:00", "to": "07:00", "sections": ["a"], "display": "off"}]"#),
            [#"schedule[0]: a rule has either "sections" (the sections to show) or "display": "off""#])
        XCTAssertEqual(
            problems(#"[{"from": "06:00", "display": "on"}]"#),
            [
                #"schedule[0].to: missing (a local time, "HH:MM")"#,
                #"schedule[0].display: the only display rule is "off""#,
            ])
        let deck = try? DeckDecoder.decode(
            #"{"schedule": [{"days": "fri-mon", "from": "00:00", "to": "24:00", "sections": ["a"]}], "sections": []}"#)
        XCTAssertEqual(deck?.schedule.first?.days, [5, 6, 0, 1])
    }
}
