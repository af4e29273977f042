/// `alert` and `alert-clear`: a template's message over everything, faded in and out over the
/// deck's transition duration on the display link's clock (the fade starts at the first frame
/// that shows it). The scroll and edits under it go on; `load` and `apply` keep it, since it
/// carries its own template.
public struct Alert: Equatable, Sendable {
    public var card: Card
    public var template: CardTemplate
    /// The opacity the fade starts from and ends at.
    var from: Double
    var to: Double
    /// The target time of the first frame of the fade (nil until one is drawn).
    var start: Double?
    /// True once a frame showed the fade's end (no more frames are needed for it).
    var settled = false

    func alpha(at time: Double, duration: Double) -> Double {
        guard let start, duration > 0 else { return start == nil ? from : to }
        let progress = min(max((time - start) / duration, 0), 1)
        return from + (to - from) * progress
    }
}

extension Scene {
    /// Shows `card` (whose template is `template`) over everything, fading in from what is
    /// shown now (a new alert replaces the old one's message at once and keeps its opacity).
    public mutating func showAlert(_ card: Card, template: CardTemplate) {
        let now = currentAlertAlpha
        alert = Alert(card: card, template: template, from: now, to: 1)
    }

    /// Fades the alert out; false when there is none (or it is already going).
    public mutating func clearAlert() -> Bool {
        guard let shown = alert, shown.to > 0 else { return false }
        alert = Alert(card: shown.card, template: shown.template, from: currentAlertAlpha, to: 0)
        return true
    }

    /// The alert's opacity in the last frame drawn.
    private var currentAlertAlpha: Double {
        guard let alert else { return 0 }
        return alert.alpha(at: lastTargetTime ?? 0, duration: transitionDuration)
    }
}
