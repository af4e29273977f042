/// A face's rasterized glyphs by glyph index, in pages of 128 made on first use: a lookup is two
/// loads. Glyphs are looked up one by one as text is drawn (a 1080p frame of new cards, about 600
/// of them), and a `Dictionary` keyed by index hashed each with SipHash and checked exclusive
/// access to the face's storage, several hundred instructions a glyph. Pages keep a face with
/// tens of thousands of glyphs (CJK) at the cost of the pages it draws from, not 8 bytes for
/// every glyph it has. Indices past the face's glyph count (none come from HarfBuzz) are kept in
/// a dictionary. Each page has a page of the glyphs' masks as plain values beside it (`mask`).
final class GlyphTable {
    private static let pageBits = 7
    private static let pageSize = 1 << pageBits
    private let pages: UnsafeMutablePointer<UnsafeMutablePointer<Glyph?>?>
    /// Beside each page of glyphs, their masks (nil where no glyph is in the table yet).
    private let maskPages: UnsafeMutablePointer<UnsafeMutablePointer<GlyphMask?>?>
    private let pageCount: Int
    private var outside: [UInt32: Glyph] = [:]

    init(glyphCount: Int) {
        pageCount = max(0, glyphCount + Self.pageSize - 1) >> Self.pageBits
        pages = .allocate(capacity: max(1, pageCount))
        pages.initialize(repeating: nil, count: max(1, pageCount))
        maskPages = .allocate(capacity: max(1, pageCount))
        maskPages.initialize(repeating: nil, count: max(1, pageCount))
    }

    deinit {
        for page in 0..<pageCount {
            guard let glyphs = pages[page] else { continue }
            glyphs.deinitialize(count: Self.pageSize)
            glyphs.deallocate()
            maskPages[page]?.deallocate()
        }
        pages.deallocate()
        maskPages.deallocate()
    }

    @inline(__always)
    subscript(index: UInt32) -> Glyph? {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else { return outside[index] }
        return pages[page]?[Int(index) & (Self.pageSize - 1)]
    }

    /// The mask of the glyph at `index` if the table has it (indices past the face's glyph count
    /// are never answered here): no reference is counted.
    @inline(__always)
    func mask(_ index: UInt32) -> GlyphMask? {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else { return nil }
        return maskPages[page]?[Int(index) & (Self.pageSize - 1)]
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
            let masks = UnsafeMutablePointer<GlyphMask?>.allocate(capacity: Self.pageSize)
            masks.initialize(repeating: nil, count: Self.pageSize)
            maskPages[page] = masks
        }
        glyphs[Int(index) & (Self.pageSize - 1)] = glyph
        maskPages[page]![Int(index) & (Self.pageSize - 1)] = GlyphMask(glyph)
    }
}
