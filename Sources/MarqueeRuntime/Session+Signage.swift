import MarqueeCore
import MarqueeDisplay
import MarqueeProtocol

/// `alert`, `alert-clear`, `display on|off`, and what a schedule does to the display.
extension Session {
    func applySignage(_ command: Command, seq: Int, _ source: CommandSource) {
        switch command {
        case .alert(let message):
            // The template is taken now: the alert keeps it through `load` and `apply`.
            guard let template = scene.deck.templates[message.template] else {
                let known = scene.deck.templates.keys.sorted().map { MessageText.quoted($0) }.joined(separator: ", ")
                source.reply(
                    error:
                        "alert: no template is named \(MessageText.quoted(message.template)) (templates: \(known.isEmpty ? "none" : known))",
                    seq: seq, json: &json)
                return
            }
            changeScenes {
                $0.showAlert(Card(id: "alert", template: message.template, fields: message.fields), template: template)
            }
            source.reply(ok: seq, json: &json)
        case .alertClear:
            guard changeScenes({ $0.clearAlert() }) else {
                source.reply(error: "alert-clear: no alert is shown", seq: seq, json: &json)
                return
            }
            source.reply(ok: seq, json: &json)
        case .display(let on):
            setDisplay(on: on, cause: "command", reason: "display off")
            source.reply(ok: seq, json: &json)
        default:
            preconditionFailure("Session.applySignage: \(command.name) is not a signage command")
        }
    }

    /// Turns the display off (no frames are rendered; time goes on) or on (the next frame shows
    /// the scene as it is then). The schedule's `"display": "off"` and the command both land here;
    /// `reason` names what turned it off, for the errors of `wait idle` and `snapshot` meanwhile.
    func setDisplay(on: Bool, cause: String, reason: String) {
        guard on != displayIsOn else { return }
        displayOffReason = on ? nil : reason
        Log.info("\(cause): display \(on ? "on" : "off")")
        // DRM turns its CRTC off, fbdev blanks the panel; the software and window backends only
        // stop their frames.
        for output in outputBackends {
            guard let power = output as? DisplayPower else { continue }
            do {
                try power.setPower(on: on)
            } catch {
                Log.error("\(cause): \(error)")
            }
        }
        if on { changeScenes { $0.needsRedraw() } }
    }
}
