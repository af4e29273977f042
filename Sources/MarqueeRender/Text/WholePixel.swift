extension Int {
    /// `Int(value.rounded())` (the nearest integer, halves away from zero) without a call: the
    /// processor's baseline here (x86-64 without SSE4.1) has no rounding instruction, so
    /// `rounded()` calls the C library's `round`, twice for every glyph a line walks (about a
    /// twentieth of the text's instructions on cards-1080p's band path). The truncation and the
    /// fraction left are exact for every double, so the result is the same integer, and a value
    /// outside `Int`'s range or NaN traps as `Int(value.rounded())` does.
    @inline(__always)
    init(roundingToNearest value: Double) {
        let whole = Int(value)
        let fraction = value - Double(whole)
        self = fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }
}
