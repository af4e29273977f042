import Glibc

/// How a `CardList` keeps its cards compactly (docs/architecture.md, "Compact card storage"): a
/// card is an 8-byte record in the list's tree pointing at its bytes in `CardText`: the lengths
/// of its id, title, body and other fields (LEB128, a byte each for short texts), then its id,
/// title and body as UTF-8 one after another, then its rarely set fields (colours, height,
/// direction, template, fields, expiry) in a small binary form. A `Card` value, with its strings,
/// is made only when a card is asked for.
struct CardRecord: TreapElement, Equatable {
    /// Where the card's bytes start in its list's `CardText`.
    var start: Int

    var summary: NoSummary { NoSummary() }
}

/// Where the parts of a card's bytes are, from the start of its bytes.
struct CardParts {
    var id: Range<Int>
    var title: Range<Int>
    var body: Range<Int>
    var extra: Range<Int>

    /// The card's bytes, header included.
    var length: Int { extra.upperBound }

    /// Reads the header at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.init(at: bytes.baseAddress!) }

    /// Reads the header of the card whose bytes start at `bytes`.
    init(at bytes: UnsafePointer<UInt8>) {
        var offset = 0
        func length() -> Int {
            var value = 0
            var shift = 0
            while true {
                let byte = bytes[offset]
                offset += 1
                value |= Int(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let lengths = (length(), length(), length(), length())
        id = offset..<offset + lengths.0
        title = id.upperBound..<id.upperBound + lengths.1
        body = title.upperBound..<title.upperBound + lengths.2
        extra = body.upperBound..<body.upperBound + lengths.3
    }

    /// How many bytes `appendLength` writes for `value`.
    static func bytes(of value: Int) -> Int {
        var count = 1
        var value = value
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }

    /// Appends `value` as LEB128 (seven bits a byte, low first).
    static func appendLength(_ value: Int, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
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

    /// Calls `body` with the bytes from `start` to the end of its chunk (a card's bytes are in one
    /// chunk: its header says how many are its own).
    func withBytes<Result>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        chunks[start >> 32].withUnsafeBufferPointer { chunk in
            body(UnsafeBufferPointer(rebasing: chunk[(start & 0xFFFF_FFFF)...]))
        }
    }

    /// Calls `body` with the address of the first byte of each chunk of each of `texts`, one
    /// after another (`ChunkBases`), valid while `body` runs. Reading many cards through them
    /// skips an array access for each, which retained and released the card's chunk: for
    /// `apply`'s difference of 100,000 cards those retains and releases were 40 % of its time.
    static func withChunkBases<Result>(of texts: [CardText], _ body: (ChunkBases) -> Result) -> Result {
        var bases: [UnsafePointer<UInt8>] = []
        var firstChunk: [Int] = []
        // Each chunk's pointer is used inside its own `withUnsafeBufferPointer`, so the calls
        // nest, one a chunk (a million cards of 157 bytes are 150 chunks; two such decks take
        // about 100 KB of stack, against a thread's 8 MB).
        func nest(_ text: Int, _ chunk: Int) -> Result {
            if text == texts.count {
                return bases.withUnsafeBufferPointer { bases in
                    firstChunk.withUnsafeBufferPointer { body(ChunkBases(bases: bases, firstChunk: $0)) }
                }
            }
            if chunk == 0 { firstChunk.append(bases.count) }
            guard chunk < texts[text].chunks.count else { return nest(text + 1, 0) }
            return texts[text].chunks[chunk].withUnsafeBufferPointer { bytes in
                bases.append(bytes.baseAddress ?? UnsafePointer(Self.emptyByte))
                return nest(text, chunk + 1)
            }
        }
        return nest(0, 0)
    }

    nonisolated(unsafe) private static let emptyByte = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    /// Whether two runs of bytes are equal: `memcmp`, where `elementsEqual` compares a byte at a
    /// time (comparing every card of two decks for `apply` spent most of its time there).
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let x = a.baseAddress, let y = b.baseAddress else { return true }
        return memcmp(x, y, a.count) == 0
    }

    /// Whether the card whose bytes start at `start` in `a` has the same bytes (id, texts and
    /// fields) as the one at `otherStart` in `b`.
    static func sameCard(_ a: CardText, at start: Int, _ b: CardText, at otherStart: Int) -> Bool {
        a.withBytes(from: start) { x in
            b.withBytes(from: otherStart) { y in
                let length = CardParts(x).length
                return length == CardParts(y).length
                    && same(UnsafeBufferPointer(rebasing: x[..<length]), UnsafeBufferPointer(rebasing: y[..<length]))
            }
        }
    }

    /// Calls `body` with the id bytes of the card whose bytes start at `start`.
    func withID<Result>(ofCardAt start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(from: start) { bytes in body(UnsafeBufferPointer(rebasing: bytes[CardParts(bytes).id])) }
    }

    /// Calls `body` with the bytes `start..<start + count`.
    func withBytes<Result>(at start: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        chunks[start >> 32].withUnsafeBufferPointer { chunk in
            body(UnsafeBufferPointer(rebasing: chunk[(start & 0xFFFF_FFFF)..<(start & 0xFFFF_FFFF) + count]))
        }
    }
}

/// Where the chunks of several `CardText`s are in memory (`CardText.withChunkBases`): a card is
/// named by its text's index in the array given and where its bytes start in that text.
struct ChunkBases {
    let bases: UnsafeBufferPointer<UnsafePointer<UInt8>>
    let firstChunk: UnsafeBufferPointer<Int>

    @inline(__always)
    func bytes(text: Int, start: Int) -> UnsafePointer<UInt8> {
        bases[firstChunk[text] + (start >> 32)] + (start & 0xFFFF_FFFF)
    }

    /// The id bytes of a card.
    @inline(__always)
    func id(text: Int, start: Int) -> UnsafeBufferPointer<UInt8> {
        let card = bytes(text: text, start: start)
        let range = CardParts(at: card).id
        return UnsafeBufferPointer(start: card + range.lowerBound, count: range.count)
    }

    /// Whether two cards have the same bytes (id, texts and fields).
    func sameCard(text: Int, start: Int, otherText: Int, otherStart: Int) -> Bool {
        let x = bytes(text: text, start: start)
        let y = bytes(text: otherText, start: otherStart)
        let length = CardParts(at: x).length
        return length == CardParts(at: y).length && memcmp(x, y, length) == 0
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

    /// Appends `card` to `text` and returns its record and the number of bytes it took.
    static func store(_ card: Card, in text: inout CardText) -> (record: CardRecord, length: Int) {
        var (id, title, body) = (card.id, card.title, card.body)
        let extra = extraBytes(card)
        return id.withUTF8 { id in
            title.withUTF8 { title in
                body.withUTF8 { body in
                    extra.withUnsafeBufferPointer { extra in
                        store(id: id, title: title, body: body, extra: extra, in: &text)
                    }
                }
            }
        }
    }

    /// Appends a card given as its id, title and body (UTF-8) and the bytes `extraBytes` makes
    /// of its other fields (decoding writes a card's texts here without making its strings).
    static func store(
        id: UnsafeBufferPointer<UInt8>, title: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>,
        extra: UnsafeBufferPointer<UInt8>, in text: inout CardText
    ) -> (record: CardRecord, length: Int) {
        let lengths = (id.count, title.count, body.count, extra.count)
        let header =
            CardParts.bytes(of: lengths.0) + CardParts.bytes(of: lengths.1) + CardParts.bytes(of: lengths.2)
            + CardParts.bytes(of: lengths.3)
        let length = header + lengths.0 + lengths.1 + lengths.2 + lengths.3
        let start = text.append(count: length) { bytes in
            CardParts.appendLength(lengths.0, to: &bytes)
            CardParts.appendLength(lengths.1, to: &bytes)
            CardParts.appendLength(lengths.2, to: &bytes)
            CardParts.appendLength(lengths.3, to: &bytes)
            bytes.append(contentsOf: id)
            bytes.append(contentsOf: title)
            bytes.append(contentsOf: body)
            bytes.append(contentsOf: extra)
        }
        return (CardRecord(start: start), length)
    }

    /// The card a record stands for.
    static func card(_ record: CardRecord, in text: CardText) -> Card {
        text.withBytes(from: record.start) { bytes in
            let parts = CardParts(bytes)
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var card = Card(id: string(parts.id), title: string(parts.title), body: string(parts.body))
            if !parts.extra.isEmpty { readExtra(UnsafeBufferPointer(rebasing: bytes[parts.extra]), into: &card) }
            return card
        }
    }

    /// The number of bytes a record's card takes.
    static func length(of record: CardRecord, in text: CardText) -> Int {
        text.withBytes(from: record.start) { CardParts($0).length }
    }

    /// Whether the record's id is `id`, without making a string.
    static func id(of record: CardRecord, in text: CardText, equals id: UnsafeBufferPointer<UInt8>) -> Bool {
        text.withBytes(from: record.start) { bytes in
            let range = CardParts(bytes).id
            return range.count == id.count && CardText.same(UnsafeBufferPointer(rebasing: bytes[range]), id)
        }
    }

    /// Calls `body` with the bytes of the record's id.
    static func withID<Result>(of record: CardRecord, in text: CardText, _ body: (UnsafeBufferPointer<UInt8>) -> Result)
        -> Result
    {
        text.withBytes(from: record.start) { bytes in body(UnsafeBufferPointer(rebasing: bytes[CardParts(bytes).id])) }
    }

    static func id(of record: CardRecord, in text: CardText) -> String {
        withID(of: record, in: text) { String(decoding: $0, as: UTF8.self) }
    }

    /// The card's own height and template name (what its list height depends on), read without
    /// making the card's strings.
    static func sizing(of record: CardRecord, in text: CardText) -> (height: Double?, template: String?) {
        text.withBytes(from: record.start) { bytes in
            let parts = CardParts(bytes)
            guard !parts.extra.isEmpty else { return (nil, nil) }
            var card = Card(id: "")
            readExtra(UnsafeBufferPointer(rebasing: bytes[parts.extra]), into: &card)
            return (card.height, card.template)
        }
    }

    // MARK: The rarely set fields

    /// The bytes of the card's rarely set fields (none for most cards).
    static func extraBytes(_ card: Card) -> [UInt8] {
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
