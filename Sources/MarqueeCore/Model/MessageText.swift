/// Input quoted back in messages. A reply or a deck problem names what it refused, but a line may
/// hold 64 KiB and a deck file a gigabyte, and every reply must stay one short line, so the quoted
/// part is cut to a fixed number of characters and ends with "…" when it was longer.
public enum MessageText {
    /// Unicode scalars of input a message quotes at most.
    public static let quoteLimit = 64

    /// `text` in double quotes, cut to `limit` Unicode scalars (plus "…").
    public static func quoted<Text: StringProtocol>(_ text: Text, limit: Int = quoteLimit) -> String {
        "\"\(clipped(text, limit: limit))\""
    }

    /// `text` cut to `limit` Unicode scalars, with "…" when something was cut. Scalars, not
    /// characters: a character may hold any number of scalars (combining marks), so only scalars
    /// bound the size. Walks at most `limit + 1` of them, however long the text is. Control
    /// characters are written as JSON escapes (`\n`, `\t`, `\u001b`): a message stays one line,
    /// and input cannot send escape sequences to the terminal that shows it.
    public static func clipped<Text: StringProtocol>(_ text: Text, limit: Int = quoteLimit) -> String {
        var head = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return String(head) + "…" }
            appendEscaped(scalar, to: &head)
            count += 1
        }
        return String(head)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to head: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x0A: head.append(contentsOf: "\\n".unicodeScalars)
        case 0x0D: head.append(contentsOf: "\\r".unicodeScalars)
        case 0x09: head.append(contentsOf: "\\t".unicodeScalars)
        case 0x00..<0x20, 0x7F..<0xA0:
            let hex = String(scalar.value, radix: 16)
            head.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        default: head.append(scalar)
        }
    }

    /// "1 card", "2 cards": `noun` with an "s" unless `count` is 1.
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
