import Glibc

/// What one frame draws, in drawing order: a pure description the renderer turns into pixels and
/// the trace writes out (SPEC §9).
public struct DisplayList: Sendable {
    public enum Content: Hashable, Sendable {
        /// A card of the deck, carried whole (the renderer and the trace draw and name it without
        /// looking it up), with its global index and where it lives in the deck.
        case card(Card, index: Int, section: Int, item: Int)
        /// A section's header.
        case header(section: Int)
        /// A card on its way out: deleted (it falls and fades), or the old content of an updated
        /// card (it fades over the new). `index` is the index it had.
        case leavingCard(Card, index: Int)
        /// The old content of a card whose template fields changed, drawn over the new only in
        /// `rows` (card rows of the elements that changed), as it fades: the rest of the card
        /// stays as it is. `index` is the card's index.
        case fadingRows(Card, index: Int, rows: [Range<Int>])
        /// The header of a deleted section on its way out.
        case leavingHeader(title: String, section: Int)
        /// An overlay band (the deck's `overlays[slot]`), fixed to the screen, over the content.
        case band(Card, slot: Int)
        /// The alert's message over everything, with the template it was given (an alert outlives
        /// the deck that defined its template).
        case alert(Card, template: CardTemplate)
    }

    /// One drawn thing with its presented attributes (SPEC §5). `frame` is in viewport
    /// coordinates (content y minus the scroll offset, plus any x-translation), before `scale`
    /// and `rotation`, which turn the item about its center.
    public struct Item: Equatable, Sendable {
        public var content: Content
        public var frame: Rect
        public var alpha: Double = 1
        public var scale: Double = 1
        public var rotation: Double = 0
        /// A color laid over the card (from keyframes), nil for none.
        public var tint: Color?

        public init(content: Content, frame: Rect) {
            self.content = content
            self.frame = frame
        }

        /// The axis-aligned box the item covers once scaled and turned about its center.
        public var boundingBox: Rect {
            let halfWidth = frame.width / 2 * scale
            let halfHeight = frame.height / 2 * scale
            let cosine = abs(cos(rotation))
            let sine = abs(sin(rotation))
            let extentX = halfWidth * cosine + halfHeight * sine
            let extentY = halfWidth * sine + halfHeight * cosine
            let centerX = frame.x + frame.width / 2
            let centerY = frame.y + frame.height / 2
            return Rect(x: centerX - extentX, y: centerY - extentY, width: 2 * extentX, height: 2 * extentY)
        }

        /// True when the scaled, turned item shares an area with a viewport of `size` (its box's
        /// edges touching the viewport's do not count). Only such items are drawn and listed.
        public func meets(viewport size: PixelSize) -> Bool {
            boundingBox.intersects(Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        }

        init(content: Content, attributes: ItemAttributes, offset: Double) {
            self.content = content
            frame = attributes.frame.offsetBy(dy: -offset)
            alpha = attributes.alpha
            scale = attributes.scale
            rotation = attributes.rotation
        }
    }

    public var background = Color.black
    /// The display link's target time of the frame (marquee text moves with it).
    public var time: Double = 0
    /// The wall-clock time the frame will be shown at, in seconds since the epoch (clock
    /// elements show it).
    public var clockTime: Double = 0
    public var offset: Double = 0
    public var percent: Double = 0
    public var items: [Item] = []

    public init() {}
}
