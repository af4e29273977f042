import CPixman

/// A face's rasterized glyphs by glyph index, in pages of 128 made on first use: a lookup is two
/// loads. Glyphs are looked up one by one as text is drawn (a 1080p frame of new cards, about 600
/// of them), and a `Dictionary` keyed by index hashed each with SipHash and checked exclusive
/// access to the face's storage, several hundred instructions a glyph. Pages keep a face with
/// tens of thousands of glyphs (CJK) at the cost of the pages it draws from, not 8 bytes for
/// every glyph it has. Indices past the face's glyph count (none come from HarfBuzz) are kept in
/// a dictionary, outside the budget. Each page has a page of the glyphs' masks as plain values
/// beside it (`mask`), each with the number of the frame that last looked the glyph up.
///
/// The glyphs of every face of one `FreeTypeLibrary` are kept within one byte budget
/// (`GlyphBudget`): past it, the glyphs looked up longest ago go, never one looked up in the frame
/// being drawn (its mask may be in use: `GlyphMask` holds its bytes unretained, and pixman's glyph
/// cache a copy keyed by the glyph's address).
final class GlyphTable {
    private static let pageBits = 7
    private static let pageSize = 1 << pageBits
    /// A glyph's mask as plain values and the frame that last looked it up (`GlyphBudget.clock`).
    struct Slot {
        var mask: GlyphMask?
        var stamp: UInt32
    }
    private let pages: UnsafeMutablePointer<UnsafeMutablePointer<Glyph?>?>
    /// Beside each page of glyphs, their masks (nil where no glyph is in the table) and stamps.
    private let maskPages: UnsafeMutablePointer<UnsafeMutablePointer<Slot>?>
    private let pageCount: Int
    private var outside: [UInt32: Glyph] = [:]
    let budget: GlyphBudget
    /// `budget.clock`, read by every lookup (raw memory: no exclusivity check).
    private let clock: UnsafeMutablePointer<UInt32>

    init(glyphCount: Int, budget: GlyphBudget) {
        pageCount = max(0, glyphCount + Self.pageSize - 1) >> Self.pageBits
        pages = .allocate(capacity: max(1, pageCount))
        pages.initialize(repeating: nil, count: max(1, pageCount))
        maskPages = .allocate(capacity: max(1, pageCount))
        maskPages.initialize(repeating: nil, count: max(1, pageCount))
        self.budget = budget
        clock = budget.clock
        budget.register(self)
    }

    deinit {
        for page in 0..<pageCount {
            guard let glyphs = pages[page] else { continue }
            for slot in 0..<Self.pageSize {
                if let glyph = glyphs[slot] { release(glyph) }
            }
            glyphs.deinitialize(count: Self.pageSize)
            glyphs.deallocate()
            maskPages[page]?.deallocate()
        }
        pages.deallocate()
        maskPages.deallocate()
        budget.unregister(self)
    }

    @inline(__always)
    subscript(index: UInt32) -> Glyph? {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else { return outside[index] }
        guard let glyphs = pages[page] else { return nil }
        let slot = Int(index) & (Self.pageSize - 1)
        maskPages[page].unsafelyUnwrapped[slot].stamp = clock.pointee
        return glyphs[slot]
    }

    /// The mask of the glyph at `index` if the table has it (indices past the face's glyph count
    /// are never answered here): no reference is counted. Valid until the next frame
    /// (`GlyphBudget.nextFrame`): the glyph is marked as used in this one.
    @inline(__always)
    func mask(_ index: UInt32) -> GlyphMask? {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount, let slots = maskPages[page] else { return nil }
        let slot = Int(index) & (Self.pageSize - 1)
        slots[slot].stamp = clock.pointee
        return slots[slot].mask
    }

    /// Whether the table holds the glyph at `index` (for the tests; not a use).
    func contains(_ index: UInt32) -> Bool {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else { return outside[index] != nil }
        return pages[page]?[Int(index) & (Self.pageSize - 1)] != nil
    }

    func insert(_ glyph: Glyph, at index: UInt32) {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else {
            outside[index] = glyph
            return
        }
        let glyphs: UnsafeMutablePointer<Glyph?>
        if let made = pages[page] {
            glyphs = made
        } else {
            glyphs = .allocate(capacity: Self.pageSize)
            glyphs.initialize(repeating: nil, count: Self.pageSize)
            pages[page] = glyphs
            let masks = UnsafeMutablePointer<Slot>.allocate(capacity: Self.pageSize)
            masks.initialize(repeating: Slot(mask: nil, stamp: 0), count: Self.pageSize)
            maskPages[page] = masks
        }
        let slot = Int(index) & (Self.pageSize - 1)
        if let old = glyphs[slot] { release(old) }
        glyphs[slot] = glyph
        maskPages[page]![slot] = Slot(mask: GlyphMask(glyph), stamp: clock.pointee)
        // Last: making room may evict glyphs of earlier frames, never this one.
        budget.charge(GlyphBudget.cost(of: glyph))
    }

    /// Appends the glyphs not looked up in frame `now` to `candidates`, as table number `table`.
    func listEvictable(now: UInt32, table: Int, into candidates: inout [GlyphBudget.Candidate]) {
        for page in 0..<pageCount {
            guard let glyphs = pages[page], let slots = maskPages[page] else { continue }
            for slot in 0..<Self.pageSize where glyphs[slot] != nil && slots[slot].stamp != now {
                candidates.append(
                    GlyphBudget.Candidate(
                        age: now &- slots[slot].stamp, table: Int32(truncatingIfNeeded: table),
                        index: UInt32(page << Self.pageBits + slot)))
            }
        }
    }

    /// Drops the glyph at `index` (a later lookup rasterizes it again) and gives back its bytes.
    func evict(_ index: UInt32) {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount, let glyphs = pages[page], let glyph = glyphs[Int(index) & (Self.pageSize - 1)]
        else { return }
        release(glyph)
        glyphs[Int(index) & (Self.pageSize - 1)] = nil
        maskPages[page]![Int(index) & (Self.pageSize - 1)].mask = nil
    }

    /// The glyph's bytes given back, and pixman's copy of it dropped: its address (pixman's key)
    /// may be a new glyph's once it is freed.
    private func release(_ glyph: Glyph) {
        if glyph.pixmanCopy {
            pixman_glyph_cache_remove(
                budget.pixmanCache, nil, UnsafeMutableRawPointer(Unmanaged.passUnretained(glyph).toOpaque()))
        }
        budget.release(GlyphBudget.cost(of: glyph))
    }
}

/// The byte budget of the glyphs kept by every face of one `FreeTypeLibrary` (a renderer's: its
/// style's faces, element faces and the fallback faces they opened), with pixman's glyph cache,
/// which they share (pixman's copies of masks drawn through a colour are counted here too).
///
/// Each lookup marks its glyph with the number of the frame being drawn (`clock`, advanced by
/// `nextFrame` when the renderer starts a frame). When a new glyph takes the bytes past
/// `budgetBytes`, the glyphs not looked up in this frame go, longest unused first, until a
/// quarter of the budget is free; glyphs of this frame stay even past the budget (the frame's text
/// may be using their masks), so a frame that draws more than the budget holds it only while it is
/// drawn. A pass that could not get under the budget is not tried again before the bytes have
/// grown by another quarter of it, or a new frame: evictions cost O(glyphs kept) a quarter budget
/// of new glyphs, never anything in a frame that rasterizes none.
final class GlyphBudget {
    /// 32 MiB: a 1080p screen of 48 px CJK text is about 900 glyphs of 2.3 KB (2 MB), of 300 px
    /// titles (90 KB a glyph) about 20; the budget keeps over ten screens of the first, over fifteen
    /// of the second, and a dozen glyphs at 2000 px (3.4 MB each). The renderer's two card caches
    /// take 24 MiB each (raster cache and `TextLayerBudget`), scaled pictures 64 MiB (`--image-cache`).
    static let defaultBudgetBytes = 32 << 20
    /// Counted per glyph beside its pixels: the `Glyph` and `PixmanImage` objects, pixman's image.
    static let overheadBytes = 256
    let budgetBytes: Int
    private(set) var bytes = 0
    /// Glyphs evicted so far (for the tests).
    private(set) var evictedCount = 0
    /// The number of the frame being drawn.
    let clock: UnsafeMutablePointer<UInt32>
    /// pixman's glyph cache, shared by the faces (keyed by `Glyph` address, unique across them; a
    /// line's glyphs borrowed from a fallback face go into it with the line's own).
    let pixmanCache: OpaquePointer
    private var tables: [Unmanaged<GlyphTable>] = []
    /// No pass while the bytes are at most this (set by a pass that left them over the budget).
    private var passAbove = 0

    struct Candidate {
        /// Frames since its last lookup.
        var age: UInt32
        var table: Int32
        var index: UInt32
    }

    init(budgetBytes: Int = defaultBudgetBytes) {
        self.budgetBytes = budgetBytes
        clock = .allocate(capacity: 1)
        clock.initialize(to: 1)
        pixmanCache = pixman_glyph_cache_create()
    }

    deinit {
        pixman_glyph_cache_destroy(pixmanCache)
        clock.deallocate()
    }

    /// A glyph's bytes: its image, pixman's copy when it has one, and the objects around them.
    static func cost(of glyph: Glyph) -> Int {
        (glyph.image?.byteCount ?? 0) * (glyph.pixmanCopy ? 2 : 1) + overheadBytes
    }

    /// A new frame: the glyphs looked up until now may go.
    func nextFrame() {
        clock.pointee &+= 1
        passAbove = 0
    }

    func register(_ table: GlyphTable) { tables.append(Unmanaged.passUnretained(table)) }

    func unregister(_ table: GlyphTable) {
        tables.removeAll { $0.toOpaque() == Unmanaged.passUnretained(table).toOpaque() }
    }

    /// pixman made a copy of `glyph` (`TextPainter`): counted until the glyph goes.
    func chargeCopy(of glyph: Glyph) {
        guard !glyph.pixmanCopy else { return }
        glyph.pixmanCopy = true
        charge(glyph.image?.byteCount ?? 0)
    }

    func charge(_ count: Int) {
        bytes += count
        if bytes > budgetBytes, bytes > passAbove { evict() }
    }

    func release(_ count: Int) { bytes -= count }

    /// Evicts the glyphs not looked up in this frame, longest unused first, until a quarter of the
    /// budget is free (or none is left to evict).
    private func evict() {
        let now = clock.pointee
        var candidates: [Candidate] = []
        for (number, table) in tables.enumerated() {
            table.takeUnretainedValue().listEvictable(now: now, table: number, into: &candidates)
        }
        candidates.sort { $0.age > $1.age }
        let target = budgetBytes / 4 * 3
        for candidate in candidates {
            guard bytes > target else { break }
            tables[Int(candidate.table)].takeUnretainedValue().evict(candidate.index)
            evictedCount += 1
        }
        passAbove = bytes > budgetBytes ? bytes + budgetBytes / 4 : 0
    }
}
