/// Numbers written in commands and curve names: decimal only. `Double(String)` also reads
/// hexadecimal (`0x1p2`), `nan` and `inf`, so some commands took `wait 0x1p2` while others refused
/// `scroll-by 0x10`; every number now goes through here and means the same everywhere.
public enum DecimalNumber {
    /// `text` as a finite number, when it is `[+-]digits[.digits][e[+-]digits]` (or `.5`, `5.`);
    /// nil for anything else, hexadecimal, `nan` and the infinities included, and for a value
    /// too large for a double.
    public static func parse<Text: StringProtocol>(_ text: Text) -> Double? {
        var digits = 0
        var index = text.utf8.startIndex
        let end = text.utf8.endIndex
        func skipDigits() -> Int {
            var count = 0
            while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text.utf8[index]) {
                index = text.utf8.index(after: index)
                count += 1
            }
            return count
        }
        if index < end, text.utf8[index] == UInt8(ascii: "+") || text.utf8[index] == UInt8(ascii: "-") {
            index = text.utf8.index(after: index)
        }
        digits += skipDigits()
        if index < end, text.utf8[index] == UInt8(ascii: ".") {
            index = text.utf8.index(after: index)
            digits += skipDigits()
        }
        guard digits > 0 else { return nil }
        if index < end, text.utf8[index] == UInt8(ascii: "e") || text.utf8[index] == UInt8(ascii: "E") {
            index = text.utf8.index(after: index)
            if index < end, text.utf8[index] == UInt8(ascii: "+") || text.utf8[index] == UInt8(ascii: "-") {
                index = text.utf8.index(after: index)
            }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == end, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
