/// A paragraph's base direction (docs/deck-format.md, "Text in every language"): `auto` takes it
/// from the paragraph's first strong character (UAX #9, rules P2 and P3), left to right when it
/// has none.
public enum TextDirection: String, Equatable, Hashable, Sendable, CaseIterable {
    case auto
    case ltr
    case rtl
}
