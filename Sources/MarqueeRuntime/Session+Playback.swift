import MarqueeCore
import MarqueeProtocol

/// `play`, `pause`, `resume` and `stop`, and a deck's own `playback` (docs/protocol.md,
/// "Playback"). The scene runs playback frame by frame; the session starts and ends it, and tells
/// the source whose `play` it was when it ends (`playback-stopped`).
extension Session {
    func applyPlayback(_ command: Command, seq: Int, _ source: CommandSource) {
        switch command {
        case .play(let settings):
            guard scene.layout.cardCount > 0 else {
                source.reply(error: "play: the deck has no cards to play (nothing changed)", seq: seq, json: &json)
                return
            }
            endPlayback(reason: "play")
            if let replaced = changeScenes({ $0.play(settings, now: link.now) }) { emit(replaced) }
            playbackOwner = (source, seq)
            playbackFromDeck = false
            json.reset()
            Messages.played(seq: seq, scene.playback!.settings, into: &json)
            source.output.writeLine(json.bytes)
        case .pause, .resume:
            do throws(PlaybackError) {
                if case .pause = command {
                    try changeScenes { (scene: inout Scene) throws(PlaybackError) in
                        try scene.pausePlayback(now: link.now)
                    }
                } else {
                    try changeScenes { (scene: inout Scene) throws(PlaybackError) in
                        try scene.resumePlayback(now: link.now)
                    }
                }
                source.reply(ok: seq, json: &json)
            } catch {
                source.reply(error: "\(command.name): \(error.message)", seq: seq, json: &json)
            }
        case .stop:
            // Stopping what is not playing is no mistake: the wanted state holds.
            endPlayback(reason: "stop")
            source.reply(ok: seq, json: &json)
        default:
            preconditionFailure("Session.applyPlayback: \(command.name) is not a playback command")
        }
    }

    /// Ends what plays (if anything), telling the source whose `play` it was.
    func endPlayback(reason: String) {
        playbackFromDeck = false
        guard changeScenes({ $0.stopPlayback() }) else { return }
        if let owner = playbackOwner {
            json.reset()
            Messages.playbackStopped(seq: owner.seq, reason: reason, into: &json)
            owner.source.output.writeLine(json.bytes, event: true)
        }
        playbackOwner = nil
    }

    /// A deck came in (`--deck` at start, `load`, a SIGHUP or `--watch` reload, `apply`), with or
    /// without its own `playback`. The deck's playback starts when the deck is loaded
    /// (`restart`: at start and on `load`) or when it differs from the shown deck's (a reload or
    /// an `apply` that changes it); the same playback in a reload or an `apply` (a feed sending
    /// its whole state every minute) leaves playback as it is, paused or stopped by a command
    /// included. A deck without one ends the playback an earlier deck started, not one started by
    /// `play`.
    func followDeckPlayback(_ new: PlaybackSettings?, previous: PlaybackSettings?, restart: Bool) {
        changeScenes { $0.setDeckPlayback(new) }
        if let new {
            // Compared by value with the defaults filled in: a state spelling out a default
            // (`"duration": 0.6`) is the same playback as one leaving it out.
            guard restart || new.filled(from: nil) != previous?.filled(from: nil) else { return }
            endPlayback(reason: "deck")
            if let replaced = changeScenes({ $0.play(new, now: link.now) }) { emit(replaced) }
            playbackOwner = nil
            playbackFromDeck = true
        } else if playbackFromDeck {
            endPlayback(reason: "deck")
        }
    }
}
