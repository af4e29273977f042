/// How a `CardList` keeps its cards compactly (docs/architecture.md, "Compact card storage"): a
/// card is a 24-byte record in the list's tree pointing at its bytes in `CardText`, where its id,
/// title and body follow one another as UTF-8 and its rarely set fields (colours, height,
/// direction, template, fields, expiry) follow in a small binary form. A `Card` value, with its
/// strings, is made only when a card is asked for.
struct CardRecord: TreapElement, Equatable {
    /// Where the card's bytes start in its list's `CardText`.
    var start: Int
    var idLength: UInt32
    var titleLength: UInt32
    var bodyLength: UInt32
    var extraLength: UInt32

    var summary: NoSummary { NoSummary() }

    var length: Int { Int(idLength) + Int(titleLength) + Int(bodyLength) + Int(extraLength) }
}

/// The bytes of a list's cards, in chunks of about a megabyte: appending never moves what is
/// there (no doubling copy of a 150 MB buffer), and a copy of the list shares the chunks, so a
/// change copies one chunk, not all of them. Bytes of removed or replaced cards stay until they
/// outweigh the live ones, then `CardList` rewrites the chunks.
struct CardText: Sendable {
    static let chunkCapacity = 1 << 20

    private var chunks: [[UInt8]] = []
    /// Bytes in the chunks, live or not.
    private(set) var storedBytes = 0

    /// Appends `count` bytes written by `write` and returns where they start. A card's bytes are
    /// never split between chunks.
    mutating func append(count: Int, _ write: (inout [UInt8]) -> Void) -> Int {
        if chunks.isEmpty || chunks[chunks.count - 1].count + count > Self.chunkCapacity {
            // The first chunk of a small list stays small; later ones take a megabyte (or the card).
            var chunk: [UInt8] = []
            chunk.reserveCapacity(chunks.isEmpty ? max(count, 256) : max(count, Self.chunkCapacity))
            chunks.append(chunk)
        }
        let index = chunks.count - 1
        let offset = chunks[index].count
        write(&chunks[index])
        precondition(chunks[index].count == offset + count, "CardText: the writer wrote the wrong count")
        storedBytes += count
        return index << 32 | offset
    }

    /// Calls `body` with the bytes `start..<start + count`.
    func withBytes<Result>(at start: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        chunks[start >> 32].withUnsafeBufferPointer { chunk in
            body(UnsafeBufferPointer(rebasing: chunk[(start & 0xFFFF_FFFF)..<(start & 0xFFFF_FFFF) + count]))
        }
    }
}

/// Writing a card into its bytes and reading it back.
enum CardCoding {
    private enum Extra: UInt8 {
        case color = 1
        case accent = 2
        case height = 4
        case direction = 8
        case template = 16
        case fields = 32
        case expires = 64
    }

    /// Appends `card` to `text` and returns its record.
    static func store(_ card: Card, in text: inout CardText) -> CardRecord {
        let extra = extraBytes(card)
        let id = card.id.utf8.count
        let title = card.title.utf8.count
        let body = card.body.utf8.count
        let start = text.append(count: id + title + body + extra.count) { bytes in
            bytes.append(contentsOf: card.id.utf8)
            bytes.append(contentsOf: card.title.utf8)
            bytes.append(contentsOf: card.body.utf8)
            bytes.append(contentsOf: extra)
        }
        return CardRecord(
            start: start, idLength: UInt32(id), titleLength: UInt32(title), bodyLength: UInt32(body),
            extraLength: UInt32(extra.count))
    }

    /// The card a record stands for.
    static func card(_ record: CardRecord, in text: CardText) -> Card {
        text.withBytes(at: record.start, count: record.length) { bytes in
            var offset = 0
            func next(_ length: UInt32) -> String {
                defer { offset += Int(length) }
                return String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + Int(length)]), as: UTF8.self)
            }
            var card = Card(id: next(record.idLength), title: next(record.titleLength), body: next(record.bodyLength))
            if record.extraLength > 0 { readExtra(UnsafeBufferPointer(rebasing: bytes[offset...]), into: &card) }
            return card
        }
    }

    /// Whether the record's id is `id`, without making a string.
    static func id(of record: CardRecord, in text: CardText, equals id: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(record.idLength) == id.count else { return false }
        return text.withBytes(at: record.start, count: id.count) { $0.elementsEqual(id) }
    }

    static func id(of record: CardRecord, in text: CardText) -> String {
        text.withBytes(at: record.start, count: Int(record.idLength)) { String(decoding: $0, as: UTF8.self) }
    }

    /// The card's own height and template name (what its list height depends on), read without
    /// making the card's strings.
    static func sizing(of record: CardRecord, in text: CardText) -> (height: Double?, template: String?) {
        guard record.extraLength > 0 else { return (nil, nil) }
        let offset = Int(record.idLength) + Int(record.titleLength) + Int(record.bodyLength)
        return text.withBytes(at: record.start + offset, count: Int(record.extraLength)) { bytes in
            var card = Card(id: "")
            readExtra(bytes, into: &card)
            return (card.height, card.template)
        }
    }

    // MARK: The rarely set fields

    private static func extraBytes(_ card: Card) -> [UInt8] {
        // Most cards have none: no array is made for them.
        guard
            card.color != nil || card.accent != nil || card.height != nil || card.direction != nil
                || card.template != nil || !card.fields.isEmpty || card.expires != nil
        else { return [] }
        var flags: UInt8 = 0
        var bytes: [UInt8] = [0]
        func color(_ color: Color?, _ flag: Extra) {
            guard let color else { return }
            flags |= flag.rawValue
            bytes += [color.red, color.green, color.blue, color.alpha]
        }
        func number(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
        func text(_ value: String) {
            withUnsafeBytes(of: UInt32(value.utf8.count).littleEndian) { bytes += $0 }
            bytes += value.utf8
        }
        color(card.color, .color)
        color(card.accent, .accent)
        if let height = card.height {
            flags |= Extra.height.rawValue
            number(height)
        }
        if let direction = card.direction {
            flags |= Extra.direction.rawValue
            bytes.append(UInt8(TextDirection.allCases.firstIndex(of: direction)!))
        }
        if let template = card.template {
            flags |= Extra.template.rawValue
            text(template)
        }
        if !card.fields.isEmpty {
            flags |= Extra.fields.rawValue
            withUnsafeBytes(of: UInt32(card.fields.count).littleEndian) { bytes += $0 }
            // In key order, so that equal cards have equal bytes.
            for (key, value) in card.fields.sorted(by: { $0.key < $1.key }) {
                text(key)
                text(value)
            }
        }
        if let expires = card.expires {
            flags |= Extra.expires.rawValue
            number(expires)
        }
        guard flags != 0 else { return [] }
        bytes[0] = flags
        return bytes
    }

    private static func readExtra(_ bytes: UnsafeBufferPointer<UInt8>, into card: inout Card) {
        let flags = bytes[0]
        var offset = 1
        func has(_ flag: Extra) -> Bool { flags & flag.rawValue != 0 }
        func color() -> Color {
            defer { offset += 4 }
            return Color(
                red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2], alpha: bytes[offset + 3])
        }
        func word() -> UInt32 {
            defer { offset += 4 }
            return (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
        }
        func number() -> Double {
            defer { offset += 8 }
            return Double(bitPattern: (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) })
        }
        func text() -> String {
            let length = Int(word())
            defer { offset += length }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        }
        if has(.color) { card.color = color() }
        if has(.accent) { card.accent = color() }
        if has(.height) { card.height = number() }
        if has(.direction) {
            card.direction = TextDirection.allCases[Int(bytes[offset])]
            offset += 1
        }
        if has(.template) { card.template = text() }
        if has(.fields) {
            let count = Int(word())
            var fields: [String: String] = [:]
            fields.reserveCapacity(count)
            for _ in 0..<count {
                let key = text()
                fields[key] = text()
            }
            card.fields = fields
        }
        if has(.expires) { card.expires = number() }
    }
}
