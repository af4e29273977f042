import MarqueeCore

/// The replies and the event of signage playback (docs/protocol.md, "Playback").
extension Messages {
    /// `{"seq":N,"ok":true,"mode":"pages","dwell":8,"duration":0.6,"curve":"ease-in-out","wrap":"rewind"}`
    /// (`"cards":N` too for `play cards N`; `{"mode":"ticker","speed":80}` for the ticker): what
    /// plays, every option as it was taken (from the command, the deck's own `playback`, or the
    /// defaults).
    public static func played(seq: Int, _ settings: PlaybackSettings, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("seq", seq)
        writer.member("ok", true)
        members(of: settings, into: &writer)
        writer.endObject()
    }

    /// The options of `settings` as members of the object being written.
    static func members(of settings: PlaybackSettings, into writer: inout JSONWriter) {
        writer.member("mode", settings.mode.name)
        if case .cards(let count) = settings.mode { writer.member("cards", count) }
        if settings.isTicker {
            writer.member("speed", settings.speed ?? PlaybackSettings.defaultSpeed)
            return
        }
        writer.member("dwell", settings.dwell ?? PlaybackSettings.defaultDwell)
        writer.member("duration", settings.duration ?? PlaybackSettings.defaultDuration)
        writer.member("curve", (settings.curve ?? .default).description)
        writer.member("wrap", (settings.wrap ?? .rewind).rawValue)
    }

    /// `{"event":"playback-stopped","seq":N,"reason":"scroll"}`: the playback that `play` N
    /// started has ended; `reason` says what ended it: `stop`, `scroll` (a scroll command or a
    /// key in the preview window), `play` (another `play`), `deck` (a deck whose own `playback`
    /// took over). Sent to the source whose `play` it was.
    public static func playbackStopped(seq: Int, reason: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("event", "playback-stopped")
        writer.member("seq", seq)
        writer.member("reason", reason)
        writer.endObject()
    }
}
