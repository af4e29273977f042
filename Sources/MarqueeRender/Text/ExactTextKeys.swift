import Glibc

// The render caches key their entries by text compared byte for byte, not by Swift's `String`
// equality. `String` hashes and compares by canonical equivalence: a string not known to be ASCII
// is normalized to NFC on every hash. cards-1080p-world spent three quarters of its slowest frame
// rehashing the Arabic, Hebrew, Devanagari and Chinese cards of `Renderer.sightedOnce` as the set
// grew (13.7 M of 18 M instructions, p99/p50 above 2), and every lookup of a new card normalized
// its title and body again. Bytes are also the truer key for a picture: text in NFC and the same
// text in NFD are canonically equal, yet a font may draw them differently (a precomposed letter,
// or a base and a combining mark), so each gets its own layer and layout.

extension Hasher {
    /// Feeds `text`'s UTF-8 bytes as stored, and their count (so "ab" + "c" and "a" + "bc" differ).
    mutating func combineExactly(_ text: String) {
        var text = text  // `withUTF8` is mutating: it may make the storage contiguous first.
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
        combine(text.utf8.count)
    }
}

/// Whether two strings hold the same UTF-8 bytes (one `memcmp`, no normalization).
func haveSameBytes(_ first: String, _ second: String) -> Bool {
    guard first.utf8.count == second.utf8.count else { return false }
    var (first, second) = (first, second)
    return first.withUTF8 { a in
        second.withUTF8 { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
    }
}

extension CardRasterCache.Key {
    /// Same size, same pictures' looks, same text bytes, and otherwise the same card (`Card`'s own equality, which the
    /// text check leaves cheap: canonically equal strings with the same bytes compare at once).
    static func == (first: Self, second: Self) -> Bool {
        first.width == second.width && first.height == second.height && first.pictures == second.pictures
            && haveSameBytes(first.card.title, second.card.title) && haveSameBytes(first.card.body, second.card.body)
            && haveSameBytes(first.card.id, second.card.id) && first.card == second.card
            && haveSameFieldBytes(first.card.fields, second.card.fields)
    }

    private static func haveSameFieldBytes(_ first: [String: String], _ second: [String: String]) -> Bool {
        if first.isEmpty && second.isEmpty { return true }
        return first.allSatisfy { field in second[field.key].map { haveSameBytes($0, field.value) } ?? false }
    }

    /// The text and the size: what tells cards apart in practice (equal keys hash alike, as keys
    /// equal by `==` have the same bytes).
    func hash(into hasher: inout Hasher) {
        hasher.combineExactly(card.id)
        hasher.combineExactly(card.title)
        hasher.combineExactly(card.body)
        if !card.fields.isEmpty {
            // Order-independent: the fields' own hashes added up.
            var sum = 0
            for (name, value) in card.fields {
                var field = Hasher()
                field.combineExactly(name)
                field.combineExactly(value)
                sum = sum &+ field.finalize()
            }
            hasher.combine(sum)
        }
        hasher.combine(width)
        hasher.combine(height)
    }
}

extension LayoutCache.Key {
    static func == (first: Self, second: Self) -> Bool {
        first.width == second.width && first.lines == second.lines && first.moreFollows == second.moreFollows
            && first.direction == second.direction && first.marksTruncation == second.marksTruncation
            && haveSameBytes(first.text, second.text)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combineExactly(text)
        hasher.combine(width)
        hasher.combine(lines)
    }
}
