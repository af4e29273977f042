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
    /// bound the size. Walks at most `limit + 1` of them, however long the text is.
    public static func clipped<Text: StringProtocol>(_ text: Text, limit: Int = quoteLimit) -> String {
        var head = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return String(head) + "…" }
            head.append(scalar)
            count += 1
        }
        return String(head)
    }

    /// "1 card", "2 cards": `noun` with an "s" unless `count` is 1.
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
