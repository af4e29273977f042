import MarqueeCore

/// Images drawn for a card and where each goes inside the card: one whole raster, or a text
/// layer's lines, each cut to its ink. Empty for a card with nothing to draw in that layer.
struct CardImage {
    struct Part {
        var image: PixmanImage
        var x: Int
        var y: Int
        /// A colour glyph's own pixels, composited OVER as they are (not an 8-bit layer drawn
        /// through the text color). Shared with the glyph cache, so it costs no memory of its own.
        var isColor = false
        /// The solid colour a coverage layer is composited through (nil for a whole raster or a
        /// colour glyph).
        var color: PixmanImage?
        /// That colour as the deck gives it, for blending the layer through a table over the
        /// card's plain fill (`GlyphBlender`) instead of through pixman.
        var textColor: Color?
    }
    var parts: [Part] = []
    /// A whole raster's uniform blocks, built the first time it is drawn scaled or turned.
    var runs: UniformBlockRuns?

    init() {}
    init(image: PixmanImage, x: Int = 0, y: Int = 0) { parts = [Part(image: image, x: x, y: y)] }
    init(parts: [Part]) { self.parts = parts }
    /// A whole card's raster, with room for its map of uniform blocks.
    init(wholeRaster image: PixmanImage) {
        parts = [Part(image: image, x: 0, y: 0)]
        runs = UniformBlockRuns(width: image.width, height: image.height)
    }

    /// The whole raster (the first part).
    var image: PixmanImage? { parts.first?.image }
    var byteCount: Int { parts.reduce(runs?.byteCount ?? 0) { $0 + ($1.isColor ? 0 : $1.image.byteCount) } }
}

/// Card images (full rasters, or text layers) kept across frames while a card's content and size
/// are unchanged, bounded by memory: the least recently drawn go first when the budget is exceeded.
final class CardRasterCache {
    struct Key: Hashable {
        var card: Card
        var width: Int
        var height: Int
        /// How a whole raster shows the card's pictures (`Renderer.settledPictureLooks`): empty
        /// for a card without pictures and for everything but whole rasters.
        var pictures: [Double?] = []
    }

    private struct Entry {
        var image: CardImage
        var lastUse: UInt64
        /// The bytes counted for the image in `bytes`. A whole raster grows once after it is
        /// kept, when its map of uniform blocks is built while it is drawn; the next lookup
        /// counts the growth.
        var charged: Int
    }

    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private(set) var bytes = 0
    let budgetBytes: Int
    /// Images drawn (cache misses), for tests and the bench.
    private(set) var rasterizedCount = 0

    init(budgetBytes: Int) { self.budgetBytes = budgetBytes }

    /// The image kept for `key`, marked as just used (one hash lookup); nil when there is none.
    func cachedImage(for key: Key) -> CardImage? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].lastUse = clock
        let image = entries.values[index].image
        let size = image.byteCount
        if size != entries.values[index].charged {
            bytes += size - entries.values[index].charged
            entries.values[index].charged = size
            if bytes > budgetBytes { evict(keepingUse: clock) }
        }
        return image
    }

    /// The image kept for `key`, or `make`'s, kept from now on.
    func image(for key: Key, make: () throws(RenderError) -> CardImage) throws(RenderError) -> CardImage {
        if let image = cachedImage(for: key) { return image }
        clock += 1
        let image = try make()
        rasterizedCount += 1
        let size = image.byteCount
        entries[key] = Entry(image: image, lastUse: clock, charged: size)
        bytes += size
        if bytes > budgetBytes { evict(keepingUse: clock) }
        return image
    }

    /// Drops least recently used images until the cache is down to three quarters of its budget,
    /// never the one just made. Evicting a quarter at once sorts the entries once per quarter of
    /// the budget filled, not on every miss of a full cache (a fast scroll misses on every card:
    /// sorting each time cost 4.6 % of cards-1080p's instructions).
    private func evict(keepingUse current: UInt64) {
        let target = budgetBytes / 4 * 3
        let ordered = entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in ordered where bytes > target && entry.lastUse != current {
            bytes -= entry.charged
            entries[key] = nil
        }
    }

    func removeAll() {
        entries.removeAll()
        bytes = 0
    }

    var count: Int { entries.count }
}
