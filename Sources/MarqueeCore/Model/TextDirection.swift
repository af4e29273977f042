/// A paragraph's base direction (docs/deck-format.md, "Text in every language"): `auto` takes it
/// from the paragraph's first strong character (UAX #9, rules P2 and P3), left to right when it
/// has none.
public enum TextDirection: String, Equatable, Hashable, Sendable, CaseIterable {
    case auto
    case ltr
    case rtl
}

/// Where a line sits in its box: `start` and `end` follow the paragraph's direction (`start` is
/// the right edge of a right-to-left line); `left`, `right` and `center` do not.
public enum TextAlign: String, Equatable, Hashable, Sendable, CaseIterable {
    case start
    case end
    case left
    case right
    case center
}
