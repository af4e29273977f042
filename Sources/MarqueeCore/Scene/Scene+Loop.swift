/// Drawing a deck as if it repeated (`play ... wrap=loop` and the ticker): copy k of the deck
/// lies `k × loopPeriod` further down, so the first cards come again right after the last, one
/// `spacing` apart as any two rows are, with no gap and nothing drawn twice in one copy.
///
/// The offset then runs past the deck's end. Drawing is periodic: the view at offset x and at
/// x − loopPeriod are the same picture once x is past the first copy's last card (`loopStart`),
/// so the offset is brought back by whole periods there (`reducedLoopOffset`) and never grows.
extension Scene {
    /// The distance between two copies of a looping deck (the content's extent: every row with
    /// the spacing after it), nil when nothing loops or the deck is empty.
    public var loopPeriod: Double? {
        guard playback?.settings.loops == true else { return nil }
        let total = layout.index.totals.extent
        return total > 0 ? total : nil
    }

    /// The lowest offset at which the first copy's rows are all above the viewport's top, less
    /// one period: offsets at or past `loopStart + loopPeriod` are reduced by whole periods.
    var loopStart: Double { max(0, layout.configuration.insets.top - layout.configuration.spacing) }

    /// `offset` brought back by whole loop periods below `loopStart + period` (the same picture).
    func reducedLoopOffset(_ offset: Double, period: Double) -> Double {
        let start = loopStart
        guard offset >= start + period else { return offset }
        return offset - period * ((offset - start) / period).rounded(.down)
    }

    /// At most this many copies are drawn in one frame: a deck of a few 1-pixel rows would
    /// otherwise need thousands to fill a screen.
    static let maximumLoopCopies = 256

    /// The shifts of the copies of the deck that the viewport at `offset` meets: only 0 unless the
    /// deck loops. One copy above the first one met is included while things move (a deleted
    /// card falling from it may still cross the viewport).
    func copyShifts(atOffset offset: Double) -> CopyShifts {
        guard let period = loopPeriod else { return CopyShifts(first: 0, last: 0, period: 0) }
        let height = scrollSpaceHeight
        let contentTop = layout.configuration.insets.top
        // Copy k's rows span [contentTop + k·period, contentTop + (k + 1)·period − spacing): it is
        // drawn when that meets [offset, offset + height).
        var first = max(0, Int(((offset - contentTop - period) / period).rounded(.down)) + 1)
        if first > 0 && (!leaving.isEmpty || !tweens.isEmpty) { first -= 1 }
        let last = max(first, Int(((offset + height - contentTop) / period).rounded(.up)) - 1)
        return CopyShifts(first: first, last: min(last, first + Self.maximumLoopCopies - 1), period: period)
    }

    /// The copies to draw, without allocating: `next()` gives each copy's shift.
    struct CopyShifts {
        var first: Int
        let last: Int
        let period: Double

        mutating func next() -> Double? {
            guard first <= last else { return nil }
            defer { first += 1 }
            return Double(first) * period
        }
    }

    /// The percentage that keyframes follow (SPEC §4). While the deck loops it runs from 0 to 1
    /// through the deck and back to 0 across the seam (the last cards leaving, the first coming),
    /// so a background bound to it changes smoothly and is at 0 again when the first card is back
    /// at the top: a repeated deck takes its keyframes again without a jump.
    func percent(atOffset offset: Double) -> Double {
        guard let period = loopPeriod else { return layout.percent(atOffset: offset) }
        let maximum = layout.maxOffset
        guard maximum > 0 else { return 0 }
        let place = offset - period * (offset / period).rounded(.down)
        if place <= maximum { return place / maximum }
        let seam = period - maximum
        return seam > 0 ? min(max((period - place) / seam, 0), 1) : 1
    }
}
