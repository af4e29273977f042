/// The deck's `schedule` (docs/deck-format.md, "Schedules"): rules by weekday and local time.
extension DeckDecoder {
    static let scheduleKeys = ["days", "from", "to", "sections", "display"]
    static let dayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let maximumScheduleRules = 256

    mutating func schedule(_ json: JSONValue, path: String) -> [ScheduleRule] {
        guard case .array(let items) = json else {
            report(path, "expected an array of rules, found \(json.typeName)")
            return []
        }
        if items.count > Self.maximumScheduleRules {
            report(path, "at most \(Self.maximumScheduleRules) rules, found \(items.count)")
            return []
        }
        return items.enumerated().compactMap { index, item in scheduleRule(item, path: "\(path)[\(index)]") }
    }

    private mutating func scheduleRule(_ json: JSONValue, path: String) -> ScheduleRule? {
        guard let members = members(json, path: path, allowed: Self.scheduleKeys) else { return nil }
        let before = problemCount
        var days = Set(0..<7)
        if let daysJSON = Self.value(members, "days"), let text = string(daysJSON, path: path + ".days") {
            days = weekdays(text, path: path + ".days") ?? days
        }
        let from = Self.value(members, "from").flatMap { localTime($0, path: path + ".from") }
        let to = Self.value(members, "to").flatMap { localTime($0, path: path + ".to") }
        if Self.value(members, "from") == nil { report(path + ".from", "missing (a local time, \"HH:MM\")") }
        if Self.value(members, "to") == nil { report(path + ".to", "missing (a local time, \"HH:MM\")") }
        var action: ScheduleRule.Action?
        let sectionsJSON = Self.value(members, "sections")
        let displayJSON = Self.value(members, "display")
        switch (sectionsJSON, displayJSON) {
        case (nil, nil), (.some, .some):
            report(path, "a rule has either \"sections\" (the sections to show) or \"display\": \"off\"")
        case (let json?, nil):
            guard case .array(let names) = json, !names.isEmpty else {
                report(path + ".sections", "expected a non-empty array of section ids or titles")
                break
            }
            let strings = names.enumerated().compactMap { index, name in
                string(name, path: "\(path).sections[\(index)]")
            }
            action = .sections(strings)
        case (nil, let json?):
            if string(json, path: path + ".display") == "off" {
                action = .displayOff
            } else if case .string = json {
                report(path + ".display", "the only display rule is \"off\"")
            }
        }
        guard problemCount == before, let from, let to, let action else { return nil }
        // Equal times are a rule running past midnight all the way round: 24 hours from `from`
        // (00:00 to 00:00 is the whole day, 10:00 to 10:00 until 10:00 the next day). Only
        // 00:00 was taken before; 10:00 and 24:00 were refused as "the same time".
        return ScheduleRule(days: days, from: from, to: to == 0 && from == 0 ? 1_440 : to, action: action)
    }

    /// "mon-fri", "sat,sun", "mon", "fri-mon" (a range may wrap past Sunday), "daily".
    private mutating func weekdays(_ text: String, path: String) -> Set<Int>? {
        if text == "daily" { return Set(0..<7) }
        var days = Set<Int>()
        for part in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false).map {
                Self.dayNames.firstIndex(of: String($0.drop { $0 == " " }.prefix(3)))
            }
            guard (1...2).contains(ends.count), ends.allSatisfy({ $0 != nil }),
                part.split(separator: "-").allSatisfy({ $0.trimmingPrefix(" ").count == 3 })
            else {
                report(path, "\(MessageText.quoted(text)) is not a list of days (\"mon-fri\", \"sat,sun\", \"daily\")")
                return nil
            }
            var day = ends[0]!
            days.insert(day)
            while day != ends[ends.count - 1]! {
                day = (day + 1) % 7
                days.insert(day)
            }
        }
        return days
    }

    /// "HH:MM", 00:00 to 24:00, as minutes past midnight.
    private mutating func localTime(_ json: JSONValue, path: String) -> Int? {
        guard let text = string(json, path: path) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hours = Int(parts[0]),
            let minutes = Int(parts[1]), (0...24).contains(hours), (0..<60).contains(minutes),
            hours * 60 + minutes <= 1_440
        else {
            report(path, "\(MessageText.quoted(text)) is not a local time (\"HH:MM\", 00:00 to 24:00)")
            return nil
        }
        return hours * 60 + minutes
    }
}
