/// The cards of a section: an ordered collection with O(log n) insert, remove and access by
/// position, and O(1) "where is the card with this id" (then O(log n) for its position), so that
/// editing a card far from the viewport of a million-card deck costs O(log n), not a move of every
/// card after it (as an `Array` would). An `ImplicitTreap` of compact records whose bytes live in
/// `CardText`, and an `IDTable`: about 40 bytes a card besides its texts, where `Card` values in
/// the tree with a `[String: Int32]` id map took about 200 (docs/architecture.md, "Compact card
/// storage"). It offers the parts of the `Array` API the rest of Marquee uses, and iterates in
/// order in O(n); a `Card` is made when one is asked for.
public struct CardList: RandomAccessCollection, MutableCollection, Sendable, ExpressibleByArrayLiteral {
    private static let seed: UInt64 = 0x6361_7264_6c69_7374
    private var tree = ImplicitTreap<CardRecord>(seed: seed)
    private var text = CardText()
    private var ids = IDTable()
    /// Bytes of the cards in the list; `text` also holds those of removed and replaced ones.
    private var liveBytes = 0

    public init() {}

    public init<S: Sequence>(_ cards: S) where S.Element == Card {
        var builder = Builder()
        for card in cards { _ = builder.append(card) }
        self = builder.build()
    }

    public init(arrayLiteral cards: Card...) { self.init(cards) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { tree.count }
    public var count: Int { tree.count }
    public var isEmpty: Bool { tree.isEmpty }

    public subscript(position: Int) -> Card {
        get { CardCoding.card(tree[position], in: text) }
        set { replace(at: position, with: newValue) }
    }

    /// In order, O(n) for the whole list.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: ImplicitTreap<CardRecord>.Iterator
        fileprivate let text: CardText
        public mutating func next() -> Card? { base.next().map { CardCoding.card($0, in: text) } }
    }

    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator(), text: text) }

    /// The position of the card with `id`, or nil: O(log n).
    public func position(ofID id: String) -> Int? { handle(ofID: id).map { tree.position(of: $0) } }

    public func contains(id: String) -> Bool { handle(ofID: id) != nil }

    /// Bytes of the cards in the list, and bytes kept (with those of removed and replaced cards
    /// not yet rewritten away): for tests and memory figures.
    public var textBytes: (live: Int, stored: Int) { (liveBytes, text.storedBytes) }

    /// The id of the card at `position`, without making the rest of the card.
    public func id(at position: Int) -> String { CardCoding.id(of: tree[position], in: text) }

    /// The own height and template name of the card at `position` (what its height in a list
    /// depends on), without making its strings.
    public func sizing(at position: Int) -> (height: Double?, template: String?) {
        CardCoding.sizing(of: tree[position], in: text)
    }

    /// A card as stored, for reading a whole list without making a `Card` of each (`check-deck`
    /// checks a million): its id, title and body as UTF-8, valid only while the `forEachStored`
    /// call that gives them runs, and the whole `Card` only when it has other fields.
    public struct StoredCard {
        public let id: UnsafeBufferPointer<UInt8>
        public let title: UnsafeBufferPointer<UInt8>
        public let body: UnsafeBufferPointer<UInt8>
        /// The card, made when it has a colour, height, direction, template, fields or expiry;
        /// nil when it is only an id, a title and a body.
        public let card: Card?

        public var idString: String { String(decoding: id, as: UTF8.self) }
    }

    /// Calls `body` with each card's position and stored form, in order.
    public func forEachStored(_ body: (_ position: Int, _ card: StoredCard) -> Void) {
        var records = tree.makeIterator()
        var position = 0
        while let record = records.next() {
            text.withBytes(from: record.start) { bytes in
                let parts = CardParts(bytes)
                body(
                    position,
                    StoredCard(
                        id: UnsafeBufferPointer(rebasing: bytes[parts.id]),
                        title: UnsafeBufferPointer(rebasing: bytes[parts.title]),
                        body: UnsafeBufferPointer(rebasing: bytes[parts.body]),
                        card: parts.extra.isEmpty ? nil : CardCoding.card(record, in: text)))
            }
            position += 1
        }
    }

    /// Every card's own height and template name, in order (for laying out a whole deck).
    public func forEachSizing(_ body: (_ height: Double?, _ template: String?) -> Void) {
        var records = tree.makeIterator()
        while let record = records.next() {
            let sizing = CardCoding.sizing(of: record, in: text)
            body(sizing.height, sizing.template)
        }
    }

    public mutating func insert(_ card: Card, at position: Int) {
        let record = store(card)
        let handle = tree.insert(record, at: position)
        addID(handle, record)
    }

    public mutating func append(_ card: Card) { insert(card, at: count) }

    @discardableResult
    public mutating func remove(at position: Int) -> Card {
        let record = tree[position]
        let card = CardCoding.card(record, in: text)
        let handle = tree.handle(at: position)
        ids.remove(handle, hash: hash(of: record))
        tree.remove(at: position, placeholder: record)
        released(record)
        return card
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        tree.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
    }

    private mutating func replace(at position: Int, with card: Card) {
        let handle = tree.handle(at: position)
        let old = tree.element(handle)
        let record = store(card)
        var id = card.id
        let idChanged = !id.withUTF8 { CardCoding.id(of: old, in: text, equals: $0) }
        if idChanged { ids.remove(handle, hash: hash(of: old)) }
        tree.replace(at: position, with: record)
        if idChanged { addID(handle, record) }
        released(old)
    }

    // MARK: Bytes and ids

    private mutating func store(_ card: Card) -> CardRecord {
        let (record, length) = CardCoding.store(card, in: &text)
        liveBytes += length
        return record
    }

    /// Notes that a record's bytes are no longer used, and rewrites the text without the unused
    /// bytes once they outweigh the used ones (so a list edited for months stays its size, and
    /// the rewrite's O(n) is paid once per n edits).
    private mutating func released(_ record: CardRecord) {
        liveBytes -= CardCoding.length(of: record, in: text)
        let unused = text.storedBytes - liveBytes
        guard unused > liveBytes, unused > CardText.chunkCapacity else { return }
        let old = text
        var fresh = CardText()
        tree.rewriteElements { record in
            let start = old.withBytes(at: record.start, count: CardCoding.length(of: record, in: old)) { bytes in
                fresh.append(count: bytes.count) { $0.append(contentsOf: bytes) }
            }
            record.start = start
        }
        text = fresh
    }

    private func handle(ofID id: String, hash: UInt32? = nil) -> IDTable.Handle? {
        var id = id
        return id.withUTF8 { bytes in
            ids.find(hash: hash ?? IDTable.hash(bytes)) { CardCoding.id(of: tree.element($0), in: text, equals: bytes) }
        }
    }

    private func hash(of record: CardRecord) -> UInt32 {
        CardCoding.withID(of: record, in: text) { IDTable.hash($0) }
    }

    private mutating func addID(_ handle: IDTable.Handle, _ record: CardRecord) {
        ids.insert(handle, hash: hash(of: record))
    }

    // MARK: Reading by node, without making cards (for finding the difference of two decks)

    /// A card's place in the list's tree: stable while the card is in the list.
    typealias Handle = IDTable.Handle

    /// Calls `body` with each card's handle and id bytes, in order.
    func forEachID(_ body: (Handle, UnsafeBufferPointer<UInt8>) -> Void) {
        tree.forEachInOrder { handle, record in CardCoding.withID(of: record, in: text) { body(handle, $0) } }
    }

    /// Calls `body` with each card's handle, where its bytes start in `storedText`, and its id
    /// bytes, in order.
    func forEachStart(_ body: (Handle, _ start: Int, UnsafeBufferPointer<UInt8>) -> Void) {
        tree.forEachInOrder { handle, record in
            CardCoding.withID(of: record, in: text) { body(handle, record.start, $0) }
        }
    }

    /// Calls `body` with each card's handle and where its bytes start in `storedText`, in order
    /// (its bytes are then read through `CardText.withChunkBases`).
    func forEachHandle(_ body: (Handle, _ start: Int) -> Void) {
        tree.forEachInOrder { handle, record in body(handle, record.start) }
    }

    /// The list's bytes, for comparing many cards (`CardText.sameCard`) without going through
    /// the list for each.
    var storedText: CardText { text }

    /// The list's id table and tree, for looking many ids up without going through the list.
    var storedIDs: IDTable { ids }
    var storedTree: ImplicitTreap<CardRecord> { tree }

    /// Every card's handle is below this.
    var handleBound: Int { tree.handleBound }

    func handle(ofID id: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Handle? {
        ids.find(hash: hash) { CardCoding.id(of: tree.element($0), in: text, equals: id) }
    }

    func id(of handle: Handle, equals id: UnsafeBufferPointer<UInt8>) -> Bool {
        CardCoding.id(of: tree.element(handle), in: text, equals: id)
    }

    func id(of handle: Handle) -> String { CardCoding.id(of: tree.element(handle), in: text) }

    func card(of handle: Handle) -> Card { CardCoding.card(tree.element(handle), in: text) }

    // MARK: Building

    /// Builds a list from cards that arrive one at a time (decoding a deck) in O(n).
    public struct Builder {
        private var list = CardList()
        public private(set) var count = 0

        public init() {}

        /// Appends `card` unless its id is already in the list; returns nil when it was appended,
        /// else the position of the card that has its id.
        public mutating func append(_ card: Card) -> Int? {
            var id = card.id
            let hash = id.withUTF8 { IDTable.hash($0) }
            if let existing = list.handle(ofID: id, hash: hash) { return Int(existing) }
            let record = list.store(card)
            list.ids.insert(list.tree.appendUnlinked(record), hash: hash)
            count += 1
            return nil
        }

        /// Appends a card given as the bytes `CardCoding` stores (its id, title and body as UTF-8,
        /// its other fields as `CardCoding.extraBytes` makes them), `idHash` being
        /// `IDTable.hash(id)`: what `append(_:)` does without a `Card` and its strings.
        mutating func append(
            id: UnsafeBufferPointer<UInt8>, idHash: UInt32, title: UnsafeBufferPointer<UInt8>,
            body: UnsafeBufferPointer<UInt8>, extra: UnsafeBufferPointer<UInt8>
        ) -> Int? {
            if let existing = list.handle(ofID: id, hash: idHash) { return Int(existing) }
            let (record, length) = CardCoding.store(id: id, title: title, body: body, extra: extra, in: &list.text)
            list.liveBytes += length
            list.ids.insert(list.tree.appendUnlinked(record), hash: idHash)
            count += 1
            return nil
        }

        /// Asks for the memory an `append` of an id with hash `idHash` will read first to be
        /// brought into the cache (`IDTable.prefetch`).
        func prefetch(idHash: UInt32) { list.ids.prefetch(hash: idHash) }

        public func contains(id: String) -> Bool { list.handle(ofID: id) != nil }

        /// The position of the card with `id` among those appended, or nil.
        public func position(ofID id: String) -> Int? { list.handle(ofID: id).map { Int($0) } }

        /// The list, balanced; the builder is left empty. (Taking the list out first leaves it the
        /// only owner of its nodes, so linking them copies nothing: a copy was 40 MB at a million.)
        public mutating func build() -> CardList {
            var built = CardList()
            swap(&built, &list)
            count = 0
            built.tree.finishAppending()
            return built
        }
    }
}

extension CardList: Equatable {
    public static func == (lhs: CardList, rhs: CardList) -> Bool { lhs.count == rhs.count && lhs.elementsEqual(rhs) }
}

extension CardList: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for card in self { hasher.combine(card) }
    }
}
