import MarqueeCore

/// The JSON lines Marquee writes on stdout (SPEC §8): one reply per command, in order, and events.
public enum Messages {
    public static func ok(seq: Int, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", true)
        writer.endObject()
    }

    public static func error(seq: Int, message: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", false)
        writer.member("error", message)
        writer.endObject()
    }

    /// `{"event":"scroll-finished","seq":N,"offset":X,"interrupted":false}`: `seq` is the command
    /// that started the scroll; `interrupted` is true when a newer scroll or a new deck replaced it
    /// before it arrived.
    public static func scrollFinished(_ event: ScrollFinished, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", "scroll-finished")
        writer.member("seq", event.tag)
        writer.member("offset", event.offset)
        writer.member("interrupted", event.interrupted)
        writer.endObject()
    }

    /// `{"event":"batch-finished","seq":N}` (N: the `commit`) and likewise `appear-finished`
    /// (N: the `appear`): every animation the command started has ended.
    public static func finished(_ event: String, seq: Int, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", event)
        writer.member("seq", seq)
        writer.endObject()
    }
}
