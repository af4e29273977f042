import CPrefetch

/// Where each card of a `CardList` is, by id: an open-addressing hash table whose slots hold a
/// tree node handle and 32 bits of its id's hash (8 bytes a slot); the ids themselves are the
/// list's own bytes. A lookup compares ids only where the 32 bits match, so a miss (every new id
/// while a deck is decoded) touches nothing but the table, and growing never reads an id again.
/// A `[String: Int32]` dictionary took about 40 bytes a card and a second copy of every id longer
/// than 15 bytes. Ids are hashed with a key drawn per process (`hash`), so a deck cannot be made
/// of ids that collide on purpose.
struct IDTable: Sendable {
    typealias Handle = Int32
    /// An empty slot; a removed one keeps its hash bits with handle -1 (a tombstone).
    private static let empty: UInt64 = 0

    private var slots: [UInt64] = []
    private(set) var count = 0
    private var removedCount = 0

    /// The 32 bits of an id's hash the table uses, never 0 (so that a slot is never `empty`).
    ///
    /// A keyed multiply-and-fold hash (the 128-bit product of two words, its halves xored, as
    /// wyhash does) over the id's words, with a key drawn at random once per process: about a
    /// third of the standard library's SipHash on short ids, and still unknown to whoever writes
    /// a deck, who therefore cannot choose ids that collide (docs/architecture.md, "Hashing
    /// card ids").
    static func hash(_ id: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let key = Self.key
        let count = id.count
        var state = key.0 ^ (UInt64(count) &* 0x9E37_79B9_7F4A_7C15)
        if let base = id.baseAddress, count > 0 {
            let bytes = UnsafeRawPointer(base)
            if count >= 8 {
                var offset = 0
                while offset + 8 < count {
                    state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), key.1)
                    offset += 8
                }
                // The last eight bytes, overlapping the word before when the count is not a
                // multiple of eight (the count, in `state`, tells such ids apart).
                state = mix(
                    state ^ bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self),
                    key.1 ^ 0xE703_7ED1_A0B4_28DB)
            } else if count >= 4 {
                let word =
                    UInt64(bytes.loadUnaligned(as: UInt32.self)) << 32
                    | UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                state = mix(state ^ word, key.1 ^ 0xE703_7ED1_A0B4_28DB)
            } else {
                let word = UInt64(base[0]) << 16 | UInt64(base[count >> 1]) << 8 | UInt64(base[count - 1])
                state = mix(state ^ word, key.1 ^ 0xE703_7ED1_A0B4_28DB)
            }
        }
        state = mix(state ^ key.1, key.0 ^ 0x8EBC_6AF0_9C88_C6E3)
        return UInt32(truncatingIfNeeded: state ^ state >> 32) | 1
    }

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }

    /// The hash's key: random, drawn once per process (from the system's generator, as
    /// `Hasher`'s seed is).
    private static let key: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next() | 1)
    }()

    /// The first slot to look at (the hash's low bit is always 1, so it is left out).
    private static func start(_ hash: UInt32, _ mask: Int) -> Int { Int(hash >> 1) & mask }

    private static func slot(_ hash: UInt32, _ handle: Handle) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(bitPattern: handle))
    }

    /// The handle whose id is `id` (hashing to `hash`); `matches(handle)` compares a stored
    /// handle's id with it.
    func find(hash: UInt32, _ matches: (Handle) -> Bool) -> Handle? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var index = Self.start(hash, mask)
        while true {
            let slot = slots[index]
            if slot == Self.empty { return nil }
            if UInt32(truncatingIfNeeded: slot >> 32) == hash {
                let handle = Handle(bitPattern: UInt32(truncatingIfNeeded: slot))
                if handle >= 0, matches(handle) { return handle }
            }
            index = (index + 1) & mask
        }
    }

    /// Asks for the slot where a lookup of `hash` starts to be brought into the cache: decoding
    /// does so when it has read a card's id and looks the id up after reading the card's other
    /// members, so that waiting for memory (the table of a million ids is 16 MB, each lookup a
    /// miss) overlaps that work.
    func prefetch(hash: UInt32) {
        guard !slots.isEmpty else { return }
        slots.withUnsafeBufferPointer { marquee_prefetch($0.baseAddress! + Self.start(hash, $0.count - 1)) }
    }

    /// Calls `body` with each handle in the table and its id's hash (`hash`), in no order.
    func forEachEntry(_ body: (Handle, UInt32) -> Void) {
        for slot in slots where slot != Self.empty && !Self.isRemoved(slot) {
            body(Handle(bitPattern: UInt32(truncatingIfNeeded: slot)), UInt32(truncatingIfNeeded: slot >> 32))
        }
    }

    /// Adds `handle`, whose id hashes to `hash` and is not in the table.
    mutating func insert(_ handle: Handle, hash: UInt32) {
        if (count + removedCount + 1) * 2 > slots.count {
            // Double when the live handles need it; else only clear the removed marks.
            resize(size: (count + 1) * 2 > slots.count ? max(16, slots.count * 2) : slots.count)
        }
        let mask = slots.count - 1
        var index = Self.start(hash, mask)
        while slots[index] != Self.empty, !Self.isRemoved(slots[index]) { index = (index + 1) & mask }
        if Self.isRemoved(slots[index]) { removedCount -= 1 }
        slots[index] = Self.slot(hash, handle)
        count += 1
    }

    /// Removes `handle`, stored under `hash`.
    mutating func remove(_ handle: Handle, hash: UInt32) {
        guard !slots.isEmpty else { return }
        let mask = slots.count - 1
        var index = Self.start(hash, mask)
        let wanted = Self.slot(hash, handle)
        while slots[index] != Self.empty {
            if slots[index] == wanted {
                slots[index] = Self.slot(hash, -1)
                count -= 1
                removedCount += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        var size = max(16, slots.count)
        while size < capacity * 2 { size *= 2 }
        if size > slots.count { resize(size: size) }
    }

    private static func isRemoved(_ slot: UInt64) -> Bool {
        slot != empty && UInt32(truncatingIfNeeded: slot) == UInt32.max
    }

    /// Rebuilds at `size` slots (a power of two) without removed marks: a load of at most a half
    /// keeps lookups short.
    private mutating func resize(size: Int) {
        let old = slots
        slots = [UInt64](repeating: Self.empty, count: size)
        removedCount = 0
        let mask = size - 1
        for slot in old where slot != Self.empty && !Self.isRemoved(slot) {
            var index = Self.start(UInt32(truncatingIfNeeded: slot >> 32), mask)
            while slots[index] != Self.empty { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
