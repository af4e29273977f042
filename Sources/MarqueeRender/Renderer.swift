import CPixman
import MarqueeCore

/// Turns a display list into pixels (SPEC §6): the background, then each item in order: section
/// headers as text (`HeaderPainter`), cards as cached rasters composited with pixman (OVER), both
/// with their presented opacity, scale and turn.
public final class Renderer {
    private let library: FreeTypeLibrary
    private let fontOverride: String?
    private var locator: FontLocator?
    private var style: Style?
    private var fonts: FontSet?
    private var rasterizer: CardRasterizer?
    private var resolver: CardResolver?
    /// Bands and the alert are opaque whatever the style's `cardAlpha`: the content passes under
    /// a band, and an alert must be read over anything.
    private var overlayResolver: CardResolver?
    private var headerColor: PixmanImage?
    /// Solid sources of text colours, and marquee lines' coverage, shared by every card.
    private let colors = SolidColors()
    private let strips = MarqueeStrips()
    /// Resolved cards by content and size (bounded: cleared past 4096 entries, with the text
    /// layers they hold), so a card is resolved once while it stays on screen, and its first
    /// sighting and its text layer are found with it.
    /// Its room is reserved at once: growing rehashes every key, thousands of texts in one frame.
    private var contents = [CardRasterCache.Key: CardContent](minimumCapacity: contentLimit + 1)
    private static let contentLimit = 4096
    /// The alert's card resolved with its own template (it may name one the deck lacks).
    private var alertContent: (key: CardRasterCache.Key, template: CardTemplate, content: CardContent)?
    /// The templates the cached contents were resolved with.
    private var templates: [String: CardTemplate] = [:]
    /// Whole rasters of cards whose pictures are fading in, made for the frame being drawn only
    /// (each of its bands draws from the same one) and not kept: they change every frame.
    private var frameRasters: [CardRasterCache.Key: PixmanImage] = [:]
    /// Per item of the frame being drawn, its card's content (nil for headers).
    private var itemContents: [CardContent?] = []
    /// Pictures for image elements; without one, image elements show their placeholders.
    public var imageProvider: ImageProviding?
    /// Turns an image field's value into the path to ask for (relative to the deck's folder,
    /// within `--restrict-paths`), or nil when it may not be shown. Set before the first frame.
    public var imagePath: (String) -> String? = { $0.hasPrefix("/") ? $0 : nil } {
        didSet { removeContents() }
    }
    /// The display-link time at which the next frame will differ from the last one drawn though
    /// the scene did not change (a marquee's next move, a clock's next change, an image fading
    /// in), or nil when nothing drawn changes by itself. A time at or before the last frame's
    /// means the next vblank.
    public private(set) var nextRedraw: Double?
    /// The offset of the last frame, for the scroll's direction (prefetch).
    private var lastOffset: Double = 0
    private let cache: CardRasterCache
    /// Text layers of cards drawn as they are (the common case), held by their `CardContent`
    /// (found with the content, without a lookup of their own) and bounded by memory: the least
    /// recently drawn go first when `layerBudget` is exceeded.
    private let layers: TextLayerBudget
    /// Text layers made in the frame being drawn. Making a layer costs more than drawing the text
    /// glyph by glyph, so when a scroll slows down and many cards come back at once (the end of
    /// an ease-in-out), the layers are spread over the next frames instead of all made in one.
    private var layersMadeThisFrame = 0
    /// Whether text layers over a card's plain fill go through its blend table (`GlyphBlender`);
    /// false composites them through pixman, as before: the reference the tests hold the table
    /// path to.
    var blendsTextLayers = true
    /// Text layers blended through a table so far (for the tests: the path ran).
    private(set) var textLayersBlended = 0
    private static let layersPerFrame = 2
    /// Maps of uniform blocks (`UniformBlockRuns`) built in the frame being drawn, frames drawn,
    /// and the raster cache's count of rasters made when the frame began. A transition's first
    /// frames make the rasters of every card it turns or scales; a raster's map (about half a
    /// millisecond here, a 1840x160 card) waits until its third frame, in a frame that makes no
    /// raster, one a frame, so that no frame pays for them all at once.
    private var runMapsBuiltThisFrame = 0
    private static let runMapsPerFrame = 1
    private var frameNumber = 0
    private var rastersMadeBeforeFrame = 0
    /// Surfaces shared by every card of the same size, fill and boxes (a tall one in tiles).
    private let surfaces = SurfaceImages()
    /// The bytes of the surfaces kept (for the tests: a tall card's are a few tiles).
    var surfaceBytes: Int { surfaces.bytes }
    /// Whole card rasters made so far (for the tests: a card too tall for one makes none).
    var wholeRastersMade: Int { cache.rasterizedCount }
    /// Section headers: their laid-out titles and, for transformed ones, their images.
    private let headers = HeaderPainter()
    /// Per item of the frame being drawn, its card's interior when drawn over the uniform background.
    private var interiors: [CardInterior?] = []
    /// The background's boxes around the cards written as constants (storage kept across frames).
    private var uncovered = UncoveredBoxes()

    /// A frame buffer drawn into: wrapped once (backends alternate between two or three, and
    /// wrapping one anew each frame allocated), with a record of the frame it holds.
    private struct Target {
        let buffer: PixelBuffer
        let image: PixmanImage
        var drawn = DrawnFrame.unknown
    }
    private var targets: [Target] = []
    /// The frame being drawn, described item by item (storage kept across frames).
    var wanted = DrawnFrame()
    var damage = FrameDamage()
    /// Records of the frames scan-out buffers hold, for the band renderer (`Renderer+Bands`).
    var bandRecords: [BandRecord] = []
    /// Band buffers for `render(_:deck:bandsFor:onScreen:size:rows:sink:)`, one per frame size.
    var bandBuffers: [BandBuffer] = []

    /// `fontOverride` is a font file used for every role instead of the style's fontconfig
    /// patterns (`--font PATH`); it is checked at once so a wrong path fails at start.
    public init(fontOverride: String? = nil, cacheBudgetBytes: Int = 48 << 20) throws(RenderError) {
        library = try FreeTypeLibrary()
        self.fontOverride = fontOverride
        cache = CardRasterCache(budgetBytes: cacheBudgetBytes / 2)
        layers = TextLayerBudget(budgetBytes: cacheBudgetBytes / 2)
        if let fontOverride { _ = try FontFace(library: library, path: fontOverride, pixelSize: 16) }
    }

    /// Opens the fonts `style` names; call before showing a deck so that a deck whose fonts are
    /// missing is refused while the old one stays on screen.
    public func prepare(style newStyle: Style) throws(RenderError) {
        if newStyle == style { return }
        let fonts = try FontSet(
            style: newStyle, library: library, locator: { () throws(RenderError) in try self.fontLocator() },
            override: fontOverride)
        headerColor = try PixmanImage(solid: pixman_color_t(newStyle.headerColor))
        rasterizer = CardRasterizer(colors: colors, strips: strips)
        resolver = CardResolver(style: newStyle, fonts: fonts, imagePath: { [weak self] in self?.imagePath($0) })
        var opaque = newStyle
        opaque.cardAlpha = 1
        overlayResolver = CardResolver(style: opaque, fonts: fonts, imagePath: { [weak self] in self?.imagePath($0) })
        self.fonts = fonts
        style = newStyle
        removeContents()
        headers.removeAll()
        // Every buffer holds frames drawn in the old style.
        for index in targets.indices { targets[index].drawn = .unknown }
        forgetBandRecords()
    }

    /// Forgets every resolved card and everything drawn from them.
    private func removeContents() {
        alertContent = nil
        contents.removeAll(keepingCapacity: true)
        cache.removeAll()
        layers.removeAll()
        surfaces.removeAll()
        strips.removeAll()
        for index in targets.indices { targets[index].drawn = .unknown }
        forgetBandRecords()
    }

    /// The card resolved for its size (once, then from `contents`).
    private func content(
        _ card: Card, width: Int, height: Int, resolver: CardResolver, ownTemplate: CardTemplate? = nil
    ) -> CardContent {
        let key = CardRasterCache.Key(card: card, width: width, height: height)
        if let ownTemplate {
            if let known = alertContent, known.key == key, known.template == ownTemplate { return known.content }
            let made = resolver.content(card, template: ownTemplate, width: width, height: height)
            alertContent = (key, ownTemplate, made)
            return made
        }
        if contents.count >= Self.contentLimit, contents[key] == nil {
            contents.removeAll(keepingCapacity: true)
            layers.removeAll()
        }
        // Found or added in one probe of the table (its slot taken as `inout`): a frame of a fast
        // scroll shows every card for the first time, and hashing each new card's texts twice,
        // to look it up and then to add it, was two probes of a table of up to 4,096 cards.
        func resolved(_ slot: inout CardContent?) -> CardContent {
            if let known = slot { return known }
            let template = card.template.flatMap { $0 == CardTemplate.defaultName ? nil : templates[$0] }
            let made = resolver.content(card, template: template, width: width, height: height)
            slot = made
            return made
        }
        return resolved(&contents[key])
    }

    private func fontLocator() throws(RenderError) -> FontLocator {
        if let locator { return locator }
        let created = try FontLocator()
        locator = created
        return created
    }

    /// The bytes of the glyphs kept (`GlyphBudget`), and its budget (for the tests).
    var glyphCacheBytes: Int { library.glyphCache.bytes }
    var glyphCacheBudgetBytes: Int { library.glyphCache.budgetBytes }
    /// Glyphs rasterized so far by the current style's faces.
    public var rasterizedGlyphCount: Int { fonts?.rasterizedGlyphCount ?? 0 }
    /// Image elements drawn as their placeholder because their picture was still being decoded
    /// (each element counted each time it is drawn), for the bench: what a first pass over
    /// pictures not seen yet shows unfinished.
    public private(set) var pendingImagesDrawn = 0
    /// The pictures the last frame described showed as placeholders because they were still
    /// being decoded, and whether any of its pictures was still fading in: `wait idle` waits until
    /// neither holds, and on the virtual clock no frame is drawn while such a picture is pending.
    public private(set) var pendingImages: Set<ImageRequest> = []
    public private(set) var isFadingInImages = false
    /// Whether the last frame shows a picture not yet decoded or not yet faded in whole.
    public var hasUnsettledImages: Bool { !pendingImages.isEmpty || isFadingInImages }
    /// Card images drawn so far (full rasters and text layers: misses of their caches).
    public var rasterizedCardCount: Int { cache.rasterizedCount + layers.rasterizedCount }

    /// Draws `list` into `buffer` and returns the rows that changed in it, as a few bands: only
    /// what differs from the frame the buffer already holds is redrawn (each buffer's last frame
    /// is remembered), so a frame where one card changed touches that card's rows, and one where a
    /// clock at the top and a marquee at the bottom moved touches two bands, not the rows between.
    /// Empty when nothing changed.
    @discardableResult
    public func render(_ list: DisplayList, deck: Deck, into buffer: PixelBuffer) throws(RenderError) -> RowBands {
        guard let tools = try beginFrame(list, deck: deck, width: buffer.width, height: buffer.height) else {
            return RowBands(0..<buffer.height)
        }
        let target = try targetIndex(for: buffer)
        let image = targets[target].image
        damage.compute(from: targets[target].drawn, to: wanted, changedRows: changedRows)
        // The buffer's record becomes this frame (the old record's storage is reused next frame);
        // a frame that fails part-way leaves the buffer's content unknown.
        swap(&targets[target].drawn, &wanted)
        guard !damage.bands.isEmpty else { return RowBands() }
        startDrawing(list, deck: deck)
        do {
            if damage.bands.count == 1, damage.bands[0] == 0..<buffer.height {
                try draw(
                    list, deck: deck, rows: nil, onto: image, drawn: targets[target].drawn,
                    with: tools)
            } else {
                for band in damage.bands {
                    image.clip(toRows: band)
                    defer { image.clip(toRows: nil) }
                    try draw(
                        list, deck: deck, rows: band, onto: image, drawn: targets[target].drawn,
                        with: tools)
                }
            }
        } catch {
            targets[target].drawn = .unknown
            throw error
        }
        // More bands than `RowBands` holds are joined where they are closest: rows reported
        // that did not change cost a copy, never a stale picture.
        return RowBands(damage.bands)
    }

    /// What drawing a frame needs from the current style.
    typealias Tools = (rasterizer: CardRasterizer, fonts: FontSet, headerColor: PixmanImage)

    /// The start of every frame, whole or in bands: the deck's style and templates taken (cached
    /// cards forgotten when they changed), the frame `list` draws described into `wanted` for a
    /// `width` x `height` frame, and the pictures ahead asked for. Nil when no style could be
    /// prepared.
    func beginFrame(_ list: DisplayList, deck: Deck, width: Int, height: Int) throws(RenderError) -> Tools? {
        try prepare(style: deck.style)
        if deck.templates != templates {
            templates = deck.templates
            removeContents()
        }
        guard let rasterizer, let fonts, let headerColor, let resolver else { return nil }
        describe(
            list, deck: deck, width: width, height: height, headerReach: fonts.header.pixelSize, resolver: resolver)
        prefetchImages(list, deck: deck, resolver: resolver)
        return (rasterizer, fonts, headerColor)
    }

    /// Once a frame is known to draw something: the per-frame budgets (text layers, maps of
    /// uniform blocks) start again, and the cards drawn over the uniform background are planned.
    func startDrawing(_ list: DisplayList, deck: Deck) {
        layersMadeThisFrame = 0
        runMapsBuiltThisFrame = 0
        frameNumber &+= 1
        colors.frame = frameNumber
        // Glyphs looked up until now may be evicted; this frame's stay while it is drawn, in
        // every band (`GlyphBudget`).
        library.glyphCache.nextFrame()
        rastersMadeBeforeFrame = cache.rasterizedCount
        frameRasters.removeAll(keepingCapacity: true)
        planInteriors(list, deck: deck)
    }

    /// Describes the frame `list` draws, item by item, into `wanted`.
    private func describe(
        _ list: DisplayList, deck: Deck, width: Int, height: Int, headerReach: Int, resolver: CardResolver
    ) {
        wanted.width = width
        wanted.height = height
        wanted.background = list.background
        wanted.items.removeAll(keepingCapacity: true)
        wanted.pieces.removeAll(keepingCapacity: true)
        itemContents.removeAll(keepingCapacity: true)
        nextRedraw = nil
        pendingImages.removeAll(keepingCapacity: true)
        isFadingInImages = false
        // The pictures this frame looks up are pinned in the store: none is evicted to make room
        // for another the same frame shows.
        imageProvider?.beginFrame()
        defer { imageProvider?.endFrame() }
        // Cards draw within their frame, but for antialiasing and filtering, and their elements
        // that reach past it (`CardContent.reachAbove`); a header's glyphs can be taller than its
        // row (by up to its font size, scaled with it, plus the filter's reach when it is
        // transformed).
        let cardReach = 3.0
        func cardItem(_ item: DisplayList.Item, _ card: Card?, _ content: CardContent?) -> DrawnItem {
            DrawnItem(
                item, look: card.map { .card($0) } ?? .header(nil), reach: cardReach,
                above: content?.reachAbove ?? 0, below: content?.reachBelow ?? 0)
        }
        func resolved(_ card: Card, _ item: DisplayList.Item, overlay: Bool = false, ownTemplate: CardTemplate? = nil)
            -> CardContent?
        {
            let cardWidth = Int(item.frame.width.rounded())
            let cardHeight = Int(item.frame.height.rounded())
            guard cardWidth > 0, cardHeight > 0 else { return nil }
            let made = content(
                card, width: cardWidth, height: cardHeight,
                resolver: overlay ? overlayResolver ?? resolver : resolver, ownTemplate: ownTemplate)
            let asPieces =
                !made.isStatic && item.scale == 1 && item.rotation == 0 && item.alpha >= 1 && item.tint == nil
            // Every picture on screen is looked at once per frame (the pieces do it themselves),
            // so that its state (pending, fading in) is known whether or not its rows are drawn.
            // A card drawn from its whole raster shows its pictures in that raster: a picture's
            // change (ready, each step of its fade-in) redraws the whole item.
            // The item's rows: a card too large for one raster is drawn as it is, transformed or
            // not, and its elements' reach past the card is part of them.
            func itemRows() -> Range<Int> { cardItem(item, nil, made).rows }
            if !asPieces, !made.images.isEmpty {
                let box = item.boundingBox
                let rows = itemRows()
                for placed in made.images {
                    let (value, settled) = imageLook(placed, time: list.time)
                    wanted.pieces.append(DrawnPiece(x: box.x, y: box.y, rows: rows, value: value))
                    if !settled { nextRedraw = min(nextRedraw ?? list.time, list.time) }
                }
            }
            if asPieces {
                describePieces(made, item, list: list)
            } else if !made.clocks.isEmpty {
                // Drawn whole from one raster: a clock's change redraws the whole item.
                let box = item.boundingBox
                let rows = itemRows()
                for clock in made.clocks {
                    let text = ClockFormat.text(clock.format, at: list.clockTime)
                    wanted.pieces.append(DrawnPiece(x: box.x, y: box.y, rows: rows, value: text.hashValue))
                    if let next = ClockFormat.nextChange(clock.format, after: list.clockTime) {
                        let time = list.time + (next - list.clockTime)
                        nextRedraw = min(nextRedraw ?? time, time)
                    }
                }
            }
            return made
        }
        for item in list.items {
            let headerItemReach = Double(headerReach) * max(1, item.scale) + cardReach
            switch item.content {
            case .card(let card, _, _, _), .leavingCard(let card, _):
                let content = resolved(card, item)
                var drawn = cardItem(item, card, content)
                drawn.drawsWholeCard = true
                wanted.items.append(drawn)
                itemContents.append(content)
            case .fadingRows(let card, _, let rows):
                let content = resolved(card, item)
                var drawn = cardItem(item, card, content)
                // Unturned, unscaled and untinted, the old rows are all it draws
                // (`drawFadingRows`); otherwise it is the whole old card.
                if item.scale == 1, item.rotation == 0, item.tint == nil, let content, rastersWhole(content) {
                    let top = Int(item.frame.y.rounded())
                    drawn.damageRows = rows.map { top + $0.lowerBound - 1..<top + $0.upperBound + 1 }
                }
                wanted.items.append(drawn)
                itemContents.append(content)
            case .header(let section):
                wanted.items.append(
                    DrawnItem(item, look: .header(deck.sections[section].title), reach: headerItemReach))
                itemContents.append(nil)
            case .leavingHeader(let title, _):
                wanted.items.append(DrawnItem(item, look: .header(title), reach: headerItemReach))
                itemContents.append(nil)
            case .band(let card, _):
                let content = resolved(card, item, overlay: true)
                wanted.items.append(cardItem(item, card, content))
                itemContents.append(content)
            case .alert(let card, let template):
                let content = resolved(card, item, overlay: true, ownTemplate: template)
                wanted.items.append(cardItem(item, card, content))
                itemContents.append(content)
            }
        }
        lastOffset = list.offset
    }

    /// The frame rows where `new`'s card can look different from `old`'s, the same card drawn
    /// the same way in the same place (`FrameDamage.compute`): the rows of the template's elements
    /// that show a field whose value differs, or nil when anything but template fields differs.
    func changedRows(_ old: DrawnItem, _ new: DrawnItem) -> [Range<Int>]? {
        guard case .card(let before) = old.look, case .card(let after) = new.look,
            let name = after.template, name != CardTemplate.defaultName, before.template == name,
            let template = templates[name]
        else { return nil }
        var same = before
        same.fields = after.fields
        guard same == after else { return nil }
        // As the card was resolved (`describe`): its size in whole pixels.
        let width = Double(Int(new.frame.width.rounded()))
        let height = Double(Int(new.frame.height.rounded()))
        let top = Int(new.frame.y.rounded())
        var rows: [Range<Int>] = []
        for element in template.elements
        where element.fieldNames.contains(where: { before.fields[$0] != after.fields[$0] }) {
            let changed = element.reach(width: width, height: height)
            rows.append(top + changed.lowerBound - 1..<top + changed.upperBound + 1)
        }
        return rows
    }

    /// The time-dependent parts of a card drawn as it is, as damage pieces, and when they next
    /// change (`nextRedraw`).
    private func describePieces(_ content: CardContent, _ item: DisplayList.Item, list: DisplayList) {
        let x = item.frame.x.rounded()
        let y = item.frame.y.rounded()
        func rows(_ rows: Range<Int>) -> Range<Int> { Int(y) + rows.lowerBound..<Int(y) + rows.upperBound }
        func redraw(at time: Double) { nextRedraw = min(nextRedraw ?? time, time) }
        for marquee in content.marquees {
            wanted.pieces.append(
                DrawnPiece(x: x, y: y, rows: rows(marquee.rows), value: marquee.offset(at: list.time)))
            redraw(at: marquee.nextChange(after: list.time))
        }
        for clock in content.clocks {
            let text = ClockFormat.text(clock.format, at: list.clockTime)
            wanted.pieces.append(DrawnPiece(x: x, y: y, rows: rows(clock.rows), value: text.hashValue))
            if let next = ClockFormat.nextChange(clock.format, after: list.clockTime) {
                redraw(at: list.time + (next - list.clockTime))
            }
        }
        for placed in content.images {
            let (value, settled) = imageLook(placed, time: list.time)
            wanted.pieces.append(DrawnPiece(x: x, y: y, rows: rows(placed.rows), value: value))
            if !settled { redraw(at: list.time) }
        }
    }

    /// Draws the background and every item that reaches `rows` (all of them when nil; the image's
    /// clip then keeps pixman within the rows, and the turned-card compositor is told them).
    func draw(
        _ list: DisplayList, deck: Deck, rows: Range<Int>?, onto image: PixmanImage, drawn: DrawnFrame,
        plansBackground: Bool = true, spans: ConstantSpans? = nil, with tools: Tools
    ) throws(RenderError) {
        let (rasterizer, fonts, headerColor) = tools
        // The plain fills left to the copy (`ConstantSpans`) where only cards over the uniform
        // background are drawn whose foreground's bounds are known: each reads and writes the
        // band only where it first writes the spans there. Anything else draws over what it
        // finds: a window that has any is drawn without spans (the table's work would be for
        // nothing, measured 2-3 % slower), and so is one with a card showing a clock.
        var spans = spans
        if spans != nil, let rows,
            list.items.indices.contains(where: {
                drawn.items[$0].rows.overlaps(rows)
                    && (interiors[$0] == nil || itemContents[$0]?.foregroundBoxes == nil)
            })
        {
            spans = nil
        }
        fillBackground(list.background, of: image, plans: plansBackground, spans: spans)
        for index in list.items.indices {
            // Tested before the item is read: a band reaches a few of the frame's items, and
            // reading one copies it (its card's strings retained and released).
            if let rows, !drawn.items[index].rows.overlaps(rows) { continue }
            let item = list.items[index]
            if let interior = interiors[index], let content = itemContents[index] {
                try drawCardOverUniformBackground(
                    interior, content, item, list: list, rasterizer: rasterizer, onto: image, spans: spans)
                continue
            }
            // (Not reached while the test above holds; kept so that no later change draws over
            // a span.)
            if let deferred = spans {
                deferred.materializeAll()
                spans = nil
            }
            switch item.content {
            case .header(let section):
                guard let title = deck.sections[section].title else { continue }
                try headers.draw(
                    title, item, face: fonts.header, color: headerColor, direction: deck.style.direction,
                    align: deck.style.align, onto: image, rows: rows)
            case .leavingHeader(let title, _):
                try headers.draw(
                    title, item, face: fonts.header, color: headerColor, direction: deck.style.direction,
                    align: deck.style.align, onto: image, rows: rows)
            case .card(let card, _, _, _):
                guard let content = itemContents[index] else { continue }
                try drawCard(card, content, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
            case .leavingCard(let card, _):
                guard let content = itemContents[index] else { continue }
                try drawCard(card, content, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
            case .fadingRows(let card, _, let fading):
                guard let content = itemContents[index] else { continue }
                guard rastersWhole(content) else {
                    try drawCard(card, content, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
                    continue
                }
                try drawFadingRows(
                    card, content, fading, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
            case .band(let card, _):
                guard let content = itemContents[index] else { continue }
                // The content scrolls under the band: its area is the background again first, so
                // a band's transparent parts (its rounded corners) never show the cards beneath.
                fill(item.frame, with: list.background, of: image, rows: rows)
                try drawCard(card, content, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
            case .alert(let card, _):
                guard let content = itemContents[index] else { continue }
                try drawCard(card, content, item, list: list, rasterizer: rasterizer, onto: image, rows: rows)
            }
        }
    }

    /// Composites a card. Drawn as it is (the common case), it is its shared surface, its images,
    /// its cached text layer through the text colours, and its moving text: OVER is
    /// associative, so this equals drawing the text into the surface first, without a full-size
    /// image per card. Transformed, faded or tinted cards are composited from one cached raster
    /// of the whole card.
    private func drawCard(
        _ card: Card, _ content: CardContent, _ item: DisplayList.Item, list: DisplayList,
        rasterizer: CardRasterizer, onto image: PixmanImage, rows: Range<Int>?
    ) throws(RenderError) {
        let width = content.surface.width
        let height = content.surface.height
        if item.scale == 1 && item.rotation == 0 && item.alpha >= 1 && item.tint == nil || !rastersWhole(content) {
            let x = Int32(item.frame.x.rounded())
            let y = Int32(item.frame.y.rounded())
            try surfaces.composite(
                content.surface, columns: 0..<width, rows: 0..<height, x: x, y: y, onto: image)
            try drawForeground(card, content, x: x, y: y, list: list, rasterizer: rasterizer, onto: image)
            return
        }
        let (raster, runs) = try wholeRaster(card, content, list: list, rasterizer: rasterizer)
        try CardCompositor.draw(raster, item, onto: image, within: rows, runs: usable(runs))
    }

    /// `runs` when its map is built or may be built in this frame; nil sends the card through
    /// the compositor's per-pixel path (or pixman's, unturned), as fast as before maps existed.
    private func usable(_ runs: UniformBlockRuns?) -> UniformBlockRuns? {
        guard let runs else { return nil }
        if runs.isBuilt { return runs }
        guard let first = runs.firstFrameDrawn else {
            runs.firstFrameDrawn = frameNumber
            return nil
        }
        guard frameNumber - first >= 2, runMapsBuiltThisFrame < Self.runMapsPerFrame,
            cache.rasterizedCount == rastersMadeBeforeFrame
        else { return nil }
        runMapsBuiltThisFrame += 1
        return runs
    }

    /// A card's whole raster, with its map of uniform blocks when it is kept across frames (a
    /// raster drawn for one frame only would not repay the map).
    private func wholeRaster(_ card: Card, _ content: CardContent, list: DisplayList, rasterizer: CardRasterizer)
        throws(RenderError) -> (PixmanImage, UniformBlockRuns?)
    {
        // Pictures are drawn into the raster as the frame shows them (`drawImage`).
        func pictures(_ placed: PlacedImage, _ image: PixmanImage) {
            drawImage(placed, x: 0, y: 0, time: list.time, rasterizer: rasterizer, onto: image)
        }
        // A clock's text changes: its card is drawn anew each frame it is shown transformed.
        if !content.clocks.isEmpty {
            return (try rasterizer.rasterize(content, clockTime: list.clockTime, pictures: pictures), nil)
        }
        var key = CardRasterCache.Key(card: card, width: content.surface.width, height: content.surface.height)
        // The raster is kept per look of its pictures: a placeholder's raster is not shown once
        // the picture is ready. One fading in is drawn anew each frame (once for all its bands).
        if !content.images.isEmpty {
            guard let looks = settledPictureLooks(content, time: list.time) else {
                if let made = frameRasters[key] { return (made, nil) }
                let made = try rasterizer.rasterize(content, clockTime: list.clockTime, pictures: pictures)
                frameRasters[key] = made
                return (made, nil)
            }
            key.pictures = looks
        }
        let raster = try cache.image(for: key) { () throws(RenderError) in
            CardImage(wholeRaster: try rasterizer.rasterize(content, clockTime: list.clockTime, pictures: pictures))
        }
        guard let whole = raster.image else { throw RenderError(.imageCreationFailed, "a card raster is empty") }
        return (whole, raster.runs)
    }

    /// The old content of a card whose fields changed, over the new only in the rows of the
    /// elements that changed: those rows of the old card over the frame's background, laid over
    /// the new card at the item's opacity (a true crossfade of those rows; the rest of the card
    /// is untouched).
    private func drawFadingRows(
        _ card: Card, _ content: CardContent, _ fading: [Range<Int>], _ item: DisplayList.Item, list: DisplayList,
        rasterizer: CardRasterizer, onto image: PixmanImage, rows: Range<Int>?
    ) throws(RenderError) {
        let (raster, runs) = try wholeRaster(card, content, list: list, rasterizer: rasterizer)
        guard item.scale == 1, item.rotation == 0, item.tint == nil else {
            return try CardCompositor.draw(raster, item, onto: image, within: rows, runs: usable(runs))
        }
        let x = Int32(item.frame.x.rounded())
        let y = Int32(item.frame.y.rounded())
        let mask = try PixmanImage(
            solid: pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(min(max(item.alpha, 0), 1) * 0xFFFF)))
        var background = pixman_color_t(list.background)
        for band in fading {
            let top = max(0, band.lowerBound)
            let bottom = min(raster.height, band.upperBound)
            guard bottom > top else { continue }
            let old = try PixmanImage(format: PIXMAN_x8r8g8b8, width: raster.width, height: bottom - top, zeroed: false)
            var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(raster.width), y2: Int32(bottom - top))
            pixman_image_fill_boxes(PIXMAN_OP_SRC, old.handle, &background, 1, &box)
            pixman_image_composite32(
                PIXMAN_OP_OVER, raster.handle, nil, old.handle, 0, Int32(top), 0, 0, 0, 0, Int32(raster.width),
                Int32(bottom - top))
            pixman_image_composite32(
                PIXMAN_OP_OVER, old.handle, mask.handle, image.handle, 0, 0, 0, 0, x, y + Int32(top),
                Int32(raster.width), Int32(bottom - top))
        }
    }

    /// Images, static text, and moving text of a card drawn as it is, at (x, y).
    private func drawForeground(
        _ card: Card, _ content: CardContent, x: Int32, y: Int32, list: DisplayList, rasterizer: CardRasterizer,
        onto image: PixmanImage, under: UInt32? = nil
    ) throws(RenderError) {
        for placed in content.images {
            drawImage(placed, x: x, y: y, time: list.time, rasterizer: rasterizer, onto: image)
        }
        try drawTextLayer(card, content, x: x, y: y, rasterizer: rasterizer, onto: image, under: under)
        for marquee in content.marquees {
            try rasterizer.drawMarquee(marquee, offset: marquee.offset(at: list.time), onto: image, x: x, y: y)
        }
        for clock in content.clocks { rasterizer.drawClock(clock, time: list.clockTime, onto: image, x: x, y: y) }
    }

    // MARK: Images

    /// How an image element looks at `time`, as a number for damage, and whether it stays so
    /// (false while pending or fading in).
    private func imageLook(_ placed: PlacedImage, time: Double) -> (value: Int, settled: Bool) {
        guard let provider = imageProvider, let request = placed.request else { return (0, true) }
        switch provider.image(for: request, now: time) {
        case .pending:
            pendingImages.insert(request)
            return (1, false)
        case .failed: return (2, true)
        case .ready(_, let readyAt):
            let fade = fadeIn(since: readyAt, time: time)
            if fade < 1 { isFadingInImages = true }
            return (3 + Int((fade * 255).rounded()), fade >= 1)
        }
    }

    private func fadeIn(since readyAt: Double, time: Double) -> Double {
        let duration = style?.transitionDuration ?? 0
        guard duration > 0 else { return 1 }
        return min(max((time - readyAt) / duration, 0), 1)
    }

    /// How each of a card's pictures is drawn in the frame (`drawImage`), for the key of its whole
    /// raster: nil for a placeholder (pending, failed, or no picture), the time it became ready
    /// for a picture shown whole; nil for all when one is fading in (its raster is not kept).
    private func settledPictureLooks(_ content: CardContent, time: Double) -> [Double?]? {
        var looks: [Double?] = []
        looks.reserveCapacity(content.images.count)
        for placed in content.images {
            guard case .ready(_, let readyAt) = drawnState(placed, time: time) else {
                looks.append(nil)
                continue
            }
            guard fadeIn(since: readyAt, time: time) >= 1 else { return nil }
            looks.append(readyAt)
        }
        return looks
    }

    /// The state a picture is drawn in: one the frame's description found pending stays a
    /// placeholder in this frame, though it may have become ready since (the frame is drawn as
    /// it was described).
    private func drawnState(_ placed: PlacedImage, time: Double) -> ImageState? {
        guard let request = placed.request else { return nil }
        if pendingImages.contains(request) { return .pending }
        return imageProvider?.image(for: request, now: time)
    }

    /// An image element: its placeholder until the image is ready, then the image fading in
    /// over it for the deck's transition duration.
    private func drawImage(
        _ placed: PlacedImage, x: Int32, y: Int32, time: Double, rasterizer: CardRasterizer, onto image: PixmanImage
    ) {
        let state = drawnState(placed, time: time)
        guard case .ready(let picture, let readyAt) = state else {
            if case .pending = state { pendingImagesDrawn += 1 }
            rasterizer.drawPlaceholder(placed, onto: image, x: x, y: y)
            return
        }
        let fade = fadeIn(since: readyAt, time: time)
        if fade < 1 { rasterizer.drawPlaceholder(placed, onto: image, x: x, y: y, opacity: 1 - fade) }
        let mask =
            fade < 1
            ? try? PixmanImage(solid: pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(fade * 0xFFFF))) : nil
        pixman_image_composite32(
            PIXMAN_OP_OVER, picture.handle, mask?.handle, image.handle, 0, 0, 0, 0, x + Int32(placed.box.x),
            y + Int32(placed.box.y), Int32(min(picture.width, placed.box.width)),
            Int32(min(picture.height, placed.box.height)))
    }

    /// Asks the image provider for the pictures of the cards just past the viewport's edge in
    /// the scroll's direction, so they are decoded before they come into view.
    private func prefetchImages(_ list: DisplayList, deck: Deck, resolver: CardResolver) {
        guard let provider = imageProvider, !deck.templates.isEmpty else { return }
        let forward = list.offset >= lastOffset
        var edge: (index: Int, frame: Rect)?
        for item in list.items {
            guard case .card(_, let index, _, _) = item.content else { continue }
            if edge == nil || (forward ? index > edge!.index : index < edge!.index) { edge = (index, item.frame) }
        }
        guard let edge else { return }
        var requests: [ImageRequest] = []
        let ahead = max(1, deck.layout.columns) * 2
        for step in 1...ahead {
            let index = forward ? edge.index + step : edge.index - step
            guard let location = try? deck.location(ofCard: index) else { break }
            let card = deck.sections[location.section].cards[location.item]
            guard deck.template(of: card) != nil else { continue }
            let height =
                deck.layout.kind == .list ? deck.listHeight(of: card) ?? deck.layout.cardHeight : deck.layout.cardHeight
            let made = content(
                card, width: Int(edge.frame.width.rounded()), height: Int(height.rounded()), resolver: resolver)
            requests += made.images.compactMap(\.request)
        }
        if !requests.isEmpty { provider.prefetch(requests) }
    }

    /// Whether a card may be drawn from a raster of the whole card (turned, scaled, faded,
    /// tinted, or its changed rows crossfaded): only if that raster fits in the raster cache. A
    /// taller card (a deck may ask for 100,000 pixels) is drawn as it is, at its place, since its
    /// raster would take more memory than the cache is allowed (768 MB for that one at 1920
    /// pixels wide) and be made again every frame.
    private func rastersWhole(_ content: CardContent) -> Bool {
        content.surface.width * content.surface.height * 4 <= cache.budgetBytes
    }

    // MARK: Cards over the uniform background

    /// Decides, per item, whether its card is drawn straight over the uniform background: drawn
    /// as it is, and overlapping nothing drawn before it. Then card color OVER background is a
    /// constant for every pixel outside the anti-aliased corner rows, written without blending.
    private func planInteriors(_ list: DisplayList, deck: Deck) {
        interiors.removeAll(keepingCapacity: true)
        let background = list.background
        for (index, item) in list.items.enumerated() {
            interiors.append(nil)
            guard case .card = item.content, item.scale == 1, item.rotation == 0, item.alpha >= 1, item.tint == nil,
                let content = itemContents[index]
            else { continue }
            let frame = item.frame
            let overlaps = list.items[..<index].contains { earlier in
                earlier.frame.x < frame.maxX && frame.x < earlier.frame.maxX && earlier.frame.y < frame.maxY
                    && frame.y < earlier.frame.maxY
            }
            if overlaps { continue }
            interiors[index] = CardInterior(surface: content.surface, frame: frame, background: background)
        }
    }

    /// Fills `frame` (within `rows` and the image: pixman does not clip filled boxes to the
    /// image) with `color`.
    private func fill(_ frame: Rect, with color: Color, of image: PixmanImage, rows: Range<Int>?) {
        var top = max(0, Int32(frame.y.rounded()))
        var bottom = min(Int32(image.height), Int32(frame.maxY.rounded()))
        if let rows {
            top = max(top, Int32(rows.lowerBound))
            bottom = min(bottom, Int32(rows.upperBound))
        }
        let box = pixman_box32_t(
            x1: max(0, Int32(frame.x.rounded())), y1: top, x2: min(Int32(image.width), Int32(frame.maxX.rounded())),
            y2: bottom)
        guard box.x2 > box.x1, box.y2 > box.y1 else { return }
        SolidFill.fill(box, with: pixman_color_t(color), of: image)
    }

    /// Paints the background, leaving out the card interiors that will be written over it (their
    /// boxes worked out anew unless `plans` is false: the later windows of a frame drawn in bands).
    private func fillBackground(_ color: Color, of image: PixmanImage, plans: Bool, spans: ConstantSpans?) {
        let background = pixman_color_t(color)
        if plans {
            uncovered.removeAllHoles()
            for interior in interiors {
                interior?.forEachConstantBox { box, _ in uncovered.addHole(box) }
            }
            uncovered.compute(width: Int32(image.width), height: Int32(image.height))
        }
        let pixel = SolidFill.pixel(background)
        for box in uncovered.result where image.reaches(y: box.y1, height: box.y2 - box.y1) {
            if let spans {
                spans.fill(columns: Int(box.x1)..<Int(box.x2), rows: Int(box.y1)..<Int(box.y2), pixel: pixel)
            } else {
                SolidFill.fill(box, with: background, of: image)
            }
        }
    }

    private func drawCardOverUniformBackground(
        _ interior: CardInterior, _ content: CardContent, _ item: DisplayList.Item, list: DisplayList,
        rasterizer: CardRasterizer, onto image: PixmanImage, spans: ConstantSpans?
    ) throws(RenderError) {
        guard case .card(let card, _, _, _) = item.content else { return }
        // The constant parts (interior rows, middle of the corner rows), written without blending.
        // The middle of the corner rows is the plain fill as well: only the corners and the
        // ends of boxes need blending. For a 1840x160 card with 16 px corners that is about
        // 1,100 blended pixels instead of 59,000 (cards-1080p-slow: 976 M -> 590 M instructions).
        interior.forEachConstantBox { box, pixel in
            // pixman_image_fill_boxes does not clip to the image: a card partly off screen would
            // be written out of bounds.
            let box = pixman_box32_t(
                x1: max(box.x1, 0), y1: max(box.y1, 0), x2: min(box.x2, Int32(image.width)),
                y2: min(box.y2, Int32(image.height)))
            guard box.x2 > box.x1, box.y2 > box.y1, image.reaches(y: box.y1, height: box.y2 - box.y1) else { return }
            if let spans {
                return spans.fill(columns: Int(box.x1)..<Int(box.x2), rows: Int(box.y1)..<Int(box.y2), pixel: pixel)
            }
            let color = pixman_color_t(
                red: UInt16((pixel >> 16) & 0xFF) * 257, green: UInt16((pixel >> 8) & 0xFF) * 257,
                blue: UInt16(pixel & 0xFF) * 257, alpha: 0xFFFF)
            SolidFill.fill(box, with: color, of: image)
        }
        // The anti-aliased corners, blended from the shared surface image (looked up, a hash of
        // the surface, only for a band that reaches a corner; a tall surface's tiles are looked
        // up by SurfaceImages for each box).
        var background: PixmanImage?
        var failure: RenderError?
        let (x, y) = (interior.x, interior.y)
        let tiled = SurfaceImages.isTiled(content.surface)
        interior.forEachBlendedBox { column, row, columns, rows in
            guard columns > 0, failure == nil, image.reaches(y: y + Int32(row), height: Int32(rows)) else { return }
            // Blended OVER what the background fill left there.
            spans?.materialize(
                columns: Int(x) + column..<Int(x) + column + columns, rows: Int(y) + row..<Int(y) + row + rows)
            do throws(RenderError) {
                if tiled {
                    return try surfaces.composite(
                        content.surface, columns: column..<column + columns, rows: row..<row + rows, x: x, y: y,
                        onto: image)
                }
                if background == nil { background = try surfaces.whole(content.surface) }
            } catch {
                failure = error
                return
            }
            guard let background else { return }
            pixman_image_composite32(
                PIXMAN_OP_OVER, background.handle, nil, image.handle, Int32(column), Int32(row), 0, 0,
                x + Int32(column), y + Int32(row), Int32(columns), Int32(rows))
        }
        if let failure { throw failure }
        if let spans { materializeForeground(content, x: Int(x), y: Int(y), spans: spans) }
        // The text lies mostly over the card's plain fill: its blends with each coverage are
        // worked out once (`GlyphBlender`).
        try drawForeground(
            card, content, x: x, y: y, list: list, rasterizer: rasterizer, onto: image, under: interior.fill)
    }

    /// Writes the spans under what `drawForeground` will draw into the band: the boxes around
    /// its lines, pictures and marquees (worked out once per card: `CardContent.foregroundBoxes`).
    /// (A card showing a clock has none, and its windows are drawn without the table; should one
    /// come here, everything is written out.)
    private func materializeForeground(_ content: CardContent, x: Int, y: Int, spans: ConstantSpans) {
        guard let boxes = content.foregroundBoxes else { return spans.materializeAll() }
        for box in boxes { spans.materialize(columns: x + box.x0..<x + box.x1, rows: y + box.y0..<y + box.y1) }
    }

    /// The card's cached text layer (made on first use) through the text colours, at (x, y).
    private func drawTextLayer(
        _ card: Card, _ content: CardContent, x: Int32, y: Int32, rasterizer: CardRasterizer, onto image: PixmanImage,
        under: UInt32? = nil
    ) throws(RenderError) {
        guard !content.texts.isEmpty else { return }
        // A card's first appearance is drawn glyph by glyph; a layer is made when it comes back
        // (the next frame, mostly), so a fast scroll, which shows most cards in one frame only,
        // neither makes nor evicts layers (cards-1080p: 1.45 G -> 1.19 G instructions, p50 0.99 -> 0.58 ms).
        let text: CardImage
        if content.glyphsDrawnInFrame == frameNumber {
            return rasterizer.drawText(content, onto: image, x: x, y: y, under: under)
        } else if let layer = content.textLayer {
            layers.touch(content)
            text = layer
        } else if !content.sighted || layersMadeThisFrame >= Self.layersPerFrame {
            content.sighted = true
            content.glyphsDrawnInFrame = frameNumber
            rasterizer.drawText(content, onto: image, x: x, y: y, under: under)
            return
        } else {
            layersMadeThisFrame += 1
            text = try rasterizer.textLayer(content)
            layers.add(text, to: content)
        }
        // Over the card's plain fill a coverage layer goes through the fill's blend table, as the
        // glyph-by-glyph path does: most of a line's pixels are four table loads and a store for
        // four, where pixman's loop multiplies each (cards-spi, whose slow scroll shows every card
        // from its layers: 757 K -> 660 K instructions a frame; cards-1080p-slow 0.165 -> 0.135 ms).
        let blends = blendsTextLayers && under != nil && GlyphBlender.canDraw(onto: image)
        for part in text.parts {
            // A colour glyph is its own source; a coverage layer is the mask of its text colour.
            guard let source = part.isColor ? part.image : part.color,
                image.reaches(y: y + Int32(part.y), height: Int32(part.image.height))
            else { continue }
            if blends, !part.isColor, let color = part.textColor, let under,
                let table = rasterizer.colors.overTable(color, fill: under)
            {
                GlyphBlender.draw(part.image, x: Int(x) + part.x, y: Int(y) + part.y, onto: image, table: table)
                textLayersBlended &+= 1
                continue
            }
            pixman_image_composite32(
                PIXMAN_OP_OVER, source.handle, part.isColor ? nil : part.image.handle, image.handle, 0, 0, 0, 0,
                x + Int32(part.x), y + Int32(part.y), Int32(part.image.width), Int32(part.image.height))
        }
    }

    private func targetIndex(for buffer: PixelBuffer) throws(RenderError) -> Int {
        if let index = targets.firstIndex(where: { $0.buffer === buffer }) { return index }
        let image = try PixmanImage(
            wrapping: UnsafeMutableRawPointer(buffer.baseAddress), format: PIXMAN_x8r8g8b8, width: buffer.width,
            height: buffer.height, stride: buffer.stride * 4)
        // A few at most: a backend that replaced its buffers (a new size) lets go of the old ones.
        if targets.count == 4 { targets.removeFirst() }
        targets.append(Target(buffer: buffer, image: image))
        return targets.count - 1
    }
}
