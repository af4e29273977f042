import CHarfBuzz
import MarqueeCore

/// The bidi embedding level of each character of a paragraph. Until UAX #9 is applied, a run of a
/// right-to-left script (Arabic, Hebrew) gets level 1 so it is shaped and drawn right to left,
/// and the paragraph keeps its runs in logical order, left to right.
struct BidiLevels {
    let base: UInt8
    /// nil when every character is at `base` (text with no right-to-left character).
    private let levels: [UInt8]?

    init(_ scalars: [UInt32], direction: TextDirection) {
        base = direction == .rtl ? 1 : 0
        let functions = hb_unicode_funcs_get_default()
        guard scalars.contains(where: { $0 >= 0x0590 }) else {
            levels = nil
            return
        }
        // Spaces, digits and punctuation stay with the run before them.
        var current: UInt8 = 0
        levels = scalars.map {
            let script = hb_unicode_script(functions, $0)
            if script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED {
                current = hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL ? 1 : 0
            }
            return current
        }
    }

    func level(_ position: Int) -> UInt8 {
        guard let levels, position < levels.count else { return base }
        return levels[position]
    }
}
