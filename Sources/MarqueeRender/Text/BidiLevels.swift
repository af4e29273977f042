import CFriBidi
import MarqueeCore

/// The bidi embedding level of each character of a paragraph, from FriBidi (UAX #9 up to rule
/// I2, explicit embeddings, isolates and bracket pairs included). The paragraph's level is 1
/// (right to left) for `rtl`, 0 for `ltr`, and for `auto` FriBidi's P2/P3: the first strong
/// character's direction, left to right when there is none.
struct BidiLevels {
    let base: UInt8
    /// nil when every character is at `base`.
    private let levels: [UInt8]?

    init(_ scalars: [UInt32], direction: TextDirection) {
        // Every right-to-left letter, Arabic digit and bidi control is at U+0590 or above: text
        // below that in a paragraph that is not right to left is all at level 0 (digits and
        // punctuation in a left-to-right paragraph resolve to it), and FriBidi is not needed.
        guard direction == .rtl || scalars.contains(where: { $0 >= 0x0590 }) else {
            base = 0
            levels = nil
            return
        }
        let count = Int32(scalars.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var resolved = [FriBidiLevel](repeating: 0, count: scalars.count)
        var parType: FriBidiParType
        switch direction {
        case .auto: parType = marquee_fribidi_par_on()
        case .ltr: parType = marquee_fribidi_par_ltr()
        case .rtl: parType = marquee_fribidi_par_rtl()
        }
        let succeeded = scalars.withUnsafeBufferPointer { text in
            fribidi_get_bidi_types(text.baseAddress, count, &types)
            fribidi_get_bracket_types(text.baseAddress, count, types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, count, &parType, &resolved) != 0
        }
        base = parType == marquee_fribidi_par_rtl() ? 1 : 0
        // FriBidi fails only when out of memory; the text is then drawn in logical order.
        levels = succeeded ? resolved.map { UInt8(bitPattern: $0) } : nil
    }

    func level(_ position: Int) -> UInt8 {
        guard let levels, position < levels.count else { return base }
        return levels[position]
    }
}
