import Glibc

/// The text of a clock element: the local time in a strftime format, and when that text next
/// changes (so a frame is drawn exactly then, and none in between).
public enum ClockFormat {
    /// `format` for `time` (seconds since the epoch), in the local time zone.
    public static func text(_ format: String, at time: Double) -> String {
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 256)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first time after `time` at which `text(format, at:)` differs, or nil when it does not
    /// change within a day. Local time changes at whole seconds, and a text that is the same at
    /// the next second changes no sooner than the next minute, hour or day (every field strftime
    /// shows changes at one of those).
    public static func nextChange(_ format: String, after time: Double) -> Double? {
        let now = text(format, at: time)
        let second = time.rounded(.down) + 1
        var seconds = time_t(time.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        let minute = time.rounded(.down) - Double(parts.tm_sec) + 60
        let hour = minute + Double(59 - Int(parts.tm_min)) * 60
        let day = hour + Double(23 - Int(parts.tm_hour)) * 3600
        for candidate in [second, minute, hour, day] where candidate > time {
            if text(format, at: candidate) != now { return candidate }
        }
        return nil
    }
}
