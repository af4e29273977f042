/// One face's glyphs already blended over a fill through one colour (`GlyphBlender.OverTable`):
/// for each glyph, its mask's rows as the pixels `GlyphBlender` writes over that fill, each row
/// the mask's width rounded up to four pixels (the fill itself where the coverage is 0 and past
/// the mask). A glyph row that lands on pixels that are all the fill is then stored as it is,
/// with no table loads (`GlyphBlender.draw(blended:...)`); text drawn glyph by glyph over a
/// card's plain fill is most of a fast scroll's text (cards-1080p: every card is new each frame).
///
/// Made per glyph the first time it is drawn through the table, in pages of 128 by glyph index
/// as `GlyphTable` keeps the masks, within `budgetBytes`: past it, further glyphs are drawn
/// through the table as before. The masks never change while their face lives, nor does a table,
/// so nothing made here goes stale.
final class BlendedGlyphs {
    let table: GlyphBlender.OverTable
    /// A face's blends are bounded: a 40 px bold Latin face's hundred glyphs take about 340 KB.
    static let budgetBytes = 512 << 10
    private static let pageBits = 7
    private static let pageSize = 1 << pageBits
    private let pages: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<UInt32>?>?>
    private let pageCount: Int
    private(set) var bytes = 0

    init(table: GlyphBlender.OverTable, glyphCount: Int) {
        self.table = table
        pageCount = max(0, glyphCount + Self.pageSize - 1) >> Self.pageBits
        pages = .allocate(capacity: max(1, pageCount))
        pages.initialize(repeating: nil, count: max(1, pageCount))
    }

    deinit {
        for page in 0..<pageCount {
            guard let glyphs = pages[page] else { continue }
            for slot in 0..<Self.pageSize { glyphs[slot]?.deallocate() }
            glyphs.deallocate()
        }
        pages.deallocate()
    }

    /// Pixels per made row of a mask `width` wide.
    @inline(__always)
    static func span(ofWidth width: Int) -> Int { (width + 3) & ~3 }

    /// The glyph at `index` blended over the table's fill (rows `span(ofWidth: mask.width)`
    /// pixels apart), made now if it is not yet; nil past the budget or for an index outside the
    /// face's glyphs.
    @inline(__always)
    func pixels(_ index: UInt32, mask: GlyphMask, coverage: UnsafePointer<UInt8>) -> UnsafePointer<UInt32>? {
        let page = Int(index) >> Self.pageBits
        guard page < pageCount else { return nil }
        if let made = pages[page]?[Int(index) & (Self.pageSize - 1)] { return UnsafePointer(made) }
        return make(index, mask: mask, coverage: coverage)
    }

    private func make(_ index: UInt32, mask: GlyphMask, coverage: UnsafePointer<UInt8>) -> UnsafePointer<UInt32>? {
        let span = Self.span(ofWidth: mask.width)
        let count = span * mask.height
        guard count > 0, bytes + count * 4 <= Self.budgetBytes else { return nil }
        let page = Int(index) >> Self.pageBits
        let glyphs: UnsafeMutablePointer<UnsafeMutablePointer<UInt32>?>
        if let known = pages[page] {
            glyphs = known
        } else {
            glyphs = .allocate(capacity: Self.pageSize)
            glyphs.initialize(repeating: nil, count: Self.pageSize)
            pages[page] = glyphs
        }
        let made = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let overFill = table.overFill
        for row in 0..<mask.height {
            for column in 0..<span {
                made[row * span + column] =
                    column < mask.width ? overFill[Int(coverage[row * mask.stride + column])] : table.fill
            }
        }
        glyphs[Int(index) & (Self.pageSize - 1)] = made
        bytes += count * 4
        return UnsafePointer(made)
    }
}
