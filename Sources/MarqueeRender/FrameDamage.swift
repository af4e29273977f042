import Glibc
import MarqueeCore

/// What a frame buffer was last drawn with, item by item: enough to tell which rows a new frame
/// changes in that buffer. Backends alternate between buffers, so each buffer has its own record
/// and the difference is always taken against what that buffer really holds.
struct DrawnFrame {
    var width = 0
    var height = 0
    var background = Color.black
    var items: [DrawnItem] = []
    /// Parts of cards that change with time (a marquee's offset, a clock's text, an image's
    /// state), each with the rows it covers: a change redraws those rows only.
    var pieces: [DrawnPiece] = []

    /// Nothing known: the next frame drawn into the buffer is drawn whole.
    static let unknown = DrawnFrame()
}

/// One drawn item: what it shows (the card's content, the header's title) and how.
struct DrawnItem {
    enum Look: Equatable {
        case card(Card)
        case header(String?)
    }

    var look: Look
    var frame: Rect
    var alpha: Double
    var scale: Double
    var rotation: Double
    var tint: Color?
    /// The rows the item can touch, widened for what is drawn past its frame (antialiasing and
    /// bilinear filtering; a header's glyphs, which may be taller than its row; a card's elements
    /// that reach past the card, `CardContent.reachAbove` and `reachBelow`).
    var rows: Range<Int>
    /// The rows the item draws on, when fewer than `rows`: the old rows of an updated card laid
    /// over the new one, unturned and unscaled (a crossfade of some elements). Only these rows
    /// are redrawn when the item comes, goes or fades.
    var damageRows: [Range<Int>]?
    /// Whether the item draws its whole card as the card looks (a card of the deck, or one
    /// leaving it): two such items of one card in the same place differ only where their cards'
    /// contents differ (`FrameDamage.compute`'s `changedRows`).
    var drawsWholeCard = false

    /// `above` and `below` are the rows the content draws past the frame's top and bottom,
    /// unscaled (a card's elements that reach past it).
    init(_ item: DisplayList.Item, look: Look, reach: Double, above: Int = 0, below: Int = 0) {
        self.look = look
        frame = item.frame
        alpha = item.alpha
        scale = item.scale
        rotation = item.rotation
        tint = item.tint
        // Half the height of the turned, scaled frame's bounding box.
        let halfWidth = item.frame.width / 2 * item.scale
        let halfHeight = item.frame.height / 2 * item.scale
        let extent = abs(sin(item.rotation)) * halfWidth + abs(cos(item.rotation)) * halfHeight
        let center = item.frame.y + item.frame.height / 2
        // Scaled with the item; turned, either may lie on either side.
        let past = item.rotation == 0 ? (above, below) : (max(above, below), max(above, below))
        let top = Int((center - extent - reach - Double(past.0) * item.scale).rounded(.down))
        let bottom = Int((center + extent + reach + Double(past.1) * item.scale).rounded(.up))
        rows = top..<max(top, bottom)
    }

    func isInSamePlace(as other: DrawnItem) -> Bool {
        frame == other.frame && alpha == other.alpha && scale == other.scale && rotation == other.rotation
            && tint == other.tint
    }

    func isSameCard(as other: DrawnItem) -> Bool {
        if case .card(let card) = look, case .card(let otherCard) = other.look { return card.id == otherCard.id }
        return false
    }

    /// Drawn the same: the cheap comparisons first, the card's content last.
    func looksLike(_ other: DrawnItem) -> Bool {
        frame == other.frame && alpha == other.alpha && scale == other.scale && rotation == other.rotation
            && tint == other.tint && look == other.look
    }
}

/// A time-dependent part of a card as drawn: where, which rows, and a number that differs when
/// it looks different (the marquee's offset, a hash of the clock's text, the image's state).
struct DrawnPiece: Equatable {
    var x: Double
    var y: Double
    var rows: Range<Int>
    var value: Int
}

/// The rows a frame changes in a buffer, as a few bands: the rows of every item that is new,
/// gone or drawn differently, plus those of items whose drawing order changed. Everything else in
/// the buffer is already what the frame would draw there. Storage is kept across frames.
struct FrameDamage {
    private(set) var bands: [Range<Int>] = []
    private var matched: [Bool] = []

    /// Fills `bands` with the rows to redraw when `old` is in the buffer and `new` is wanted.
    ///
    /// `changedRows` gives, for a card drawn whole and unturned that was in the buffer in the
    /// same place with other content, the frame rows where the two contents can differ (the
    /// elements showing the fields that differ), or nil when they may differ anywhere. It compares
    /// what the buffer holds with what is wanted, whatever happened between, so an item is never
    /// taken for drawn where it is not.
    mutating func compute(
        from old: DrawnFrame, to new: DrawnFrame, changedRows: (_ old: DrawnItem, _ new: DrawnItem) -> [Range<Int>]?
    ) {
        bands.removeAll(keepingCapacity: true)
        guard old.width == new.width, old.height == new.height, old.background == new.background else {
            bands.append(0..<new.height)
            return
        }
        matched.removeAll(keepingCapacity: true)
        for _ in old.items { matched.append(false) }
        // Match items in drawing order: an item found earlier than the last match has moved in
        // the order and is redrawn, so overlapping items are painted in the new order.
        var next = 0
        for item in new.items {
            var found = false
            var index = next
            while index < old.items.count {
                if !matched[index], old.items[index].looksLike(item) {
                    matched[index] = true
                    next = index + 1
                    found = true
                    break
                }
                index += 1
            }
            guard !found else { continue }
            // A card whose content changed in some rows only, drawn unturned and unscaled in the
            // same place as in the buffer and at the same place in the drawing order: those rows
            // are redrawn, not the whole card (a fields-only `update`).
            if item.drawsWholeCard, item.scale == 1, item.rotation == 0,
                let index = (next..<old.items.count).first(where: {
                    !matched[$0] && old.items[$0].drawsWholeCard && old.items[$0].isInSamePlace(as: item)
                        && old.items[$0].isSameCard(as: item)
                }),
                let rows = changedRows(old.items[index], item)
            {
                matched[index] = true
                next = index + 1
                for changed in rows { add(changed, height: new.height) }
                continue
            }
            add(item, height: new.height)
        }
        for (index, item) in old.items.enumerated() where !matched[index] { add(item, height: new.height) }
        guard !new.pieces.isEmpty || !old.pieces.isEmpty else { return }
        matched.removeAll(keepingCapacity: true)
        for _ in old.pieces { matched.append(false) }
        for piece in new.pieces {
            if let index = old.pieces.indices.first(where: { !matched[$0] && old.pieces[$0] == piece }) {
                matched[index] = true
            } else {
                add(piece.rows, height: new.height)
            }
        }
        for (index, piece) in old.pieces.enumerated() where !matched[index] { add(piece.rows, height: new.height) }
    }

    private mutating func add(_ item: DrawnItem, height: Int) {
        guard let damageRows = item.damageRows else { return add(item.rows, height: height) }
        for rows in damageRows { add(rows, height: height) }
    }

    /// Adds rows, keeping the bands sorted and merged (bands closer than 16 rows become one:
    /// drawing the few rows between costs less than visiting every item once more).
    private mutating func add(_ rows: Range<Int>, height: Int) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        var merged = rows
        var index = 0
        while index < bands.count {
            let band = bands[index]
            if band.lowerBound <= merged.upperBound + 16, merged.lowerBound <= band.upperBound + 16 {
                merged = min(band.lowerBound, merged.lowerBound)..<max(band.upperBound, merged.upperBound)
                bands.remove(at: index)
            } else {
                index += 1
            }
        }
        var position = 0
        while position < bands.count, bands[position].lowerBound < merged.lowerBound { position += 1 }
        bands.insert(merged, at: position)
    }
}
