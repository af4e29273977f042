import MarqueeCore

/// The JSON lines Marquee writes on stdout (SPEC §8): one reply per command, in order, and events.
public enum Messages {
    public static func ok(seq: Int, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", true)
        writer.endObject()
    }

    /// Error messages longer than this (in UTF-8 bytes) are cut in the middle.
    public static let maximumErrorBytes = 2_048

    public static func error(seq: Int, message: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", false)
        writer.member("error", bounded(message))
        writer.endObject()
    }

    /// Every reply stays one short line, whatever a message quotes. Messages quote input cut to a
    /// few dozen characters where they are made (`MessageText`); this catches what is not, such as
    /// a path of 60,000 characters in a file error. The middle goes, since a message names the
    /// thing first and says what is wrong with it last.
    static func bounded(_ message: String) -> String {
        guard message.utf8.count > maximumErrorBytes else { return message }
        // Counted in Unicode scalars (at most 4 bytes each), not characters, which may be any length.
        let keep = maximumErrorBytes / 16
        let head = MessageText.clipped(message, limit: keep * 2)
        return "\(head) \(String(Substring(message.unicodeScalars.suffix(keep))))"
    }

    /// `{"event":"scroll-finished","seq":N,"offset":X,"interrupted":false,"presented":T}`: `seq` is
    /// the command that started the scroll; `interrupted` is true when a newer scroll or a new deck
    /// replaced it before it arrived; `presented` is the display-link time (seconds) of the first
    /// frame that showed it, null for a scroll replaced before any frame did.
    public static func scrollFinished(_ event: ScrollFinished, presented: Double?, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", "scroll-finished")
        writer.member("seq", event.tag)
        writer.member("offset", event.offset)
        writer.member("interrupted", event.interrupted)
        if let presented { writer.member("presented", presented) } else { writer.member("presented", JSONValue.null) }
        writer.endObject()
    }

    /// `{"event":"image-failed","path":"...","error":"..."}`: an image file cannot be shown
    /// (missing, unreadable, not a regular file, corrupt, too large); one per file, to every
    /// command source, as it answers no command.
    public static func imageFailed(path: String, error: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", "image-failed")
        writer.member("path", bounded(path))
        writer.member("error", bounded(error))
        writer.endObject()
    }

    /// `{"event":"display","connector":"HDMI-A-1","state":"connected","mode":"1920x1080@60"}`, or
    /// `"state":"disconnected"` without a mode: a display plugged in or out (a TV switched on or
    /// off). It answers no command: no `seq`.
    public static func display(connector: String, state: String, mode: String?, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", "display")
        writer.member("connector", bounded(connector))
        writer.member("state", state)
        if let mode { writer.member("mode", mode) }
        writer.endObject()
    }

    /// `{"event":"batch-finished","seq":N,"presented":T}` (N: the `commit`) and likewise
    /// `appear-finished` (N: the `appear`): every animation the command started has ended; T is
    /// the display-link time of the first frame that showed them.
    public static func finished(_ event: String, seq: Int, presented: Double, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", event)
        writer.member("seq", seq)
        writer.member("presented", presented)
        writer.endObject()
    }

    /// `{"seq":N,"ok":true,"inserted":3,"deleted":2,"moved":1,"updated":4,...}`: what an `apply`
    /// changed. All counts 0: the state was the one shown, and nothing animates.
    public static func applied(seq: Int, _ applied: Scene.Application, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", true)
        writer.member("inserted", applied.diff.inserted)
        writer.member("deleted", applied.diff.deleted)
        writer.member("moved", applied.diff.moved)
        writer.member("updated", applied.diff.updated)
        writer.member("sectionsInserted", applied.diff.sectionsInserted)
        writer.member("sectionsDeleted", applied.diff.sectionsDeleted)
        writer.member("sectionsRetitled", applied.diff.sectionsRetitled)
        writer.member("settings", applied.settingsChanged)
        writer.endObject()
    }
}
