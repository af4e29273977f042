import Glibc

/// One rule of a deck's `schedule`: on some weekdays, from one local time to another, show only
/// some sections or turn the display off. A rule whose `to` is not after its `from` runs past
/// midnight into the next day (its `days` name the day it starts).
public struct ScheduleRule: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        /// Only these sections (by id, else by title) are shown.
        case sections([String])
        case displayOff
    }

    /// Weekdays the rule starts on, 0 = Sunday (as `tm_wday`); all seven when not given.
    public var days: Set<Int>
    /// Minutes since local midnight, 0...1440.
    public var from: Int
    public var to: Int
    public var action: Action

    public init(days: Set<Int> = Set(0..<7), from: Int, to: Int, action: Action) {
        self.days = days
        self.from = from
        self.to = to
        self.action = action
    }

    var crossesMidnight: Bool { to <= from }

    /// The rule's times as a deck writes them: "23:00 to 06:00".
    public var hours: String {
        func clock(_ minutes: Int) -> String {
            let hour = minutes / 60
            let minute = minutes % 60
            return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
        }
        return clock(from) + " to " + clock(to)
    }

    /// Whether the rule holds at `time`: from its start to its end on the local day of `time`,
    /// or, for a rule past midnight, on the day before. Both ends are moments (`localMoment`), the
    /// ones `Schedule.nextChange` wakes at, so a time the clocks skip moves the rule's start and
    /// end alike (02:30 on the night clocks jump from 02:00 to 03:00 is 03:30); comparing
    /// wall-clock minutes instead showed a 02:30 rule at 03:10.
    func holds(at time: Double, day: tm) -> Bool {
        let weekday = Int(day.tm_wday)
        if days.contains(weekday),
            Schedule.localMoment(day, dayOffset: 0, minute: from) <= time,
            time < Schedule.localMoment(day, dayOffset: crossesMidnight ? 1 : 0, minute: to)
        {
            return true
        }
        guard crossesMidnight, days.contains((weekday + 6) % 7) else { return false }
        return Schedule.localMoment(day, dayOffset: -1, minute: from) <= time
            && time < Schedule.localMoment(day, dayOffset: 0, minute: to)
    }
}

/// What the schedule asks for at a moment: the sections to show (nil: all) and whether the
/// display is off. The first sections rule that holds wins; any display rule that holds turns
/// the display off.
public struct ScheduleState: Equatable, Sendable {
    public var sections: [String]?
    public var displayOff = false

    public init(sections: [String]? = nil, displayOff: Bool = false) {
        self.sections = sections
        self.displayOff = displayOff
    }
}

/// Local time through the C library (`localtime_r`, `mktime`): the system's time zone (`TZ`),
/// daylight saving time included.
public enum Schedule {
    /// The state `rules` give at `time` (seconds since the epoch).
    public static func state(_ rules: [ScheduleRule], at time: Double) -> ScheduleState {
        let day = localDay(time)
        var state = ScheduleState()
        for rule in rules where rule.holds(at: time, day: day) {
            switch rule.action {
            case .sections(let names): if state.sections == nil { state.sections = names }
            case .displayOff: state.displayOff = true
            }
        }
        return state
    }

    /// The first `"display": "off"` rule that holds at `time`, to name it in messages.
    public static func displayOffRule(_ rules: [ScheduleRule], at time: Double) -> ScheduleRule? {
        let day = localDay(time)
        return rules.first { $0.action == .displayOff && $0.holds(at: time, day: day) }
    }

    /// The first moment after `time` at which a rule starts or ends (where the state may
    /// change), within the next eight days; nil without rules. One timer is set for it: nothing
    /// is polled between changes.
    public static func nextChange(_ rules: [ScheduleRule], after time: Double) -> Double? {
        guard !rules.isEmpty else { return nil }
        var best: Double?
        var now = time_t(time.rounded(.down))
        var today = tm()
        localtime_r(&now, &today)
        for dayOffset in 0...8 {
            let weekday = (Int(today.tm_wday) + dayOffset) % 7
            for rule in rules {
                // A rule starts on its days and ends the same day, or the next for one that
                // runs past midnight: other days' times change nothing and wake nobody.
                var minutes: [Int] = []
                if rule.days.contains(weekday) { minutes.append(rule.from) }
                if rule.days.contains(rule.crossesMidnight ? (weekday + 6) % 7 : weekday) { minutes.append(rule.to) }
                for minute in minutes {
                    let moment = localMoment(today, dayOffset: dayOffset, minute: minute)
                    if moment > time, moment < (best ?? .infinity) { best = moment }
                }
            }
            if best != nil && dayOffset >= 1 { break }
        }
        return best
    }

    /// The local date and time of `time`.
    static func localDay(_ time: Double) -> tm {
        var seconds = time_t(time.rounded(.down))
        var local = tm()
        localtime_r(&seconds, &local)
        return local
    }

    /// `minute` past local midnight, `dayOffset` days after the day of `day`, in seconds since
    /// the epoch. The wall time is read with each UTC offset the zone has within a day of it,
    /// and a reading that maps back to the same wall time is the moment: a time the clocks go
    /// through twice (02:30 when they go back from 03:00 to 02:00) is the second one; a time the
    /// clocks skip (02:30 when they go from 02:00 to 03:00) is read with the offset before the
    /// jump, the same distance past the change (03:30). `mktime` with `tm_isdst = -1` was used
    /// before: glibc settles a time that happens twice with the offset of its previous call, so
    /// a rule's start moved with the other rules of the deck.
    static func localMoment(_ day: tm, dayOffset: Int, minute: Int) -> Double {
        var wall = tm()
        wall.tm_year = day.tm_year
        wall.tm_mon = day.tm_mon
        wall.tm_mday = day.tm_mday + Int32(dayOffset)
        wall.tm_hour = Int32(minute / 60)
        wall.tm_min = Int32(minute % 60)
        wall.tm_sec = 0
        // The wall time as if it were UTC (timegm also normalises a day or hour past its end).
        let asUTC = timegm(&wall)
        var offsets: [Int] = []
        for probe in [asUTC - 86_400, asUTC, asUTC + 86_400] {
            let offset = utcOffset(at: probe)
            if !offsets.contains(offset) { offsets.append(offset) }
        }
        let readings = offsets.map { asUTC - time_t($0) }
        let matching = readings.filter { reading in
            var seconds = reading
            var local = tm()
            localtime_r(&seconds, &local)
            return local.tm_year == wall.tm_year && local.tm_yday == wall.tm_yday
                && local.tm_hour == wall.tm_hour && local.tm_min == wall.tm_min
        }
        // Twice: the later reading. Skipped (none matches): the later reading is the one with
        // the smaller offset, the one before a jump forward.
        return Double((matching.isEmpty ? readings : matching).max()!)
    }

    /// Seconds east of UTC at `time` in the local zone.
    private static func utcOffset(at time: time_t) -> Int {
        var seconds = time
        var local = tm()
        localtime_r(&seconds, &local)
        return local.tm_gmtoff
    }
}
