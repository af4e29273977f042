/// Stale cards (SPEC §14): a card whose `expires` time has passed fades to `style.staleAlpha`
/// over the transition duration, and stays so until it is updated or removed.
///
/// `expires` is wall-clock time; animation runs on the display link's clock. The moment of expiry
/// is taken to the link's clock through `clockOffset` (wall minus link time, measured again every
/// frame on a real display), so the fade is a pure function of the frame's target time: a card
/// that expires on screen fades from that moment, one that expired off screen comes into view
/// already faded, and a jump of the wall clock (NTP setting a Pi's clock after boot) moves every
/// expiry with it at the next frame.
extension Scene {
    mutating func applyStaleness(to list: inout DisplayList, at target: Double) {
        nextStaleChange = nil
        let staleAlpha = deck.style.staleAlpha
        for index in list.items.indices {
            let card: Card
            switch list.items[index].content {
            case .card(let shown, _, _, _):
                guard !refreshedAfterExpiry.contains(shown.id) else { continue }
                card = shown
            // The old content of an update fades out as it looked: stale if it was.
            case .leavingCard(let old, _), .fadingRows(let old, _, _): card = old
            case .header, .leavingHeader, .band, .alert: continue
            }
            guard let expires = card.expires else { continue }
            let expiry = expires - clockOffset
            if expiry > target {
                nextStaleChange = min(nextStaleChange ?? expiry, expiry)
                continue
            }
            let progress = transitionDuration > 0 ? min((target - expiry) / transitionDuration, 1) : 1
            if progress < 1 { nextStaleChange = target }
            list.items[index].alpha *= 1 - (1 - staleAlpha) * progress
        }
    }

    /// After an update: a card whose (new) `expires` has already passed is fresh again, since the
    /// update is the news its feed vouches for; one that expires later goes stale then.
    mutating func noteRefresh(of card: Card) {
        let wallNow = (lastTargetTime ?? 0) + clockOffset
        if let expires = card.expires, expires <= wallNow {
            refreshedAfterExpiry.insert(card.id)
        } else {
            refreshedAfterExpiry.remove(card.id)
        }
    }
}
