import MarqueeCore
import MarqueeRender
import MarqueeRuntime

/// The SPEC §10 deck, as `marquee bench` builds it.
func benchDeck(cards: Int) -> Deck { BenchRunner.deck(cards: cards) }

let benchSize = PixelSize(width: 1920, height: 1080)

/// Two display lists drawn in turn into one buffer, so that every frame is drawn whole (drawing
/// the same list again into the same buffer draws nothing: the renderer redraws only what
/// changed).
final class AlternatingFrames {
    let renderer: Renderer
    let deck: Deck
    let lists: [DisplayList]
    var next = 0
    let buffer = PixelBuffer(width: benchSize.width, height: benchSize.height)

    init(deck: Deck, lists: [DisplayList], warmUpFrames: Int) throws {
        self.deck = deck
        self.lists = lists
        renderer = try Renderer()
        for _ in 0..<warmUpFrames { try render() }
    }

    func render() throws {
        try renderer.render(lists[next], deck: deck, into: buffer)
        next = 1 - next
    }
}

/// A frame drawn whole from cached cards, again and again: the SPEC §10 deck at `offset` and half
/// a pixel further, so every row changes and every card comes from its caches (a card's text
/// layer is made on its second appearance, at most two a frame: hence the warm-up).
func steadyFrames(cards: Int, offset: Double) throws -> AlternatingFrames {
    let deck = benchDeck(cards: cards)
    let lists = (0..<2).map { index in
        var scene = Scene(deck: deck, viewport: benchSize)
        _ = scene.scroll(to: .offset(offset + 0.5 * Double(index)), duration: 0, curve: .linear, tag: 0)
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        return list
    }
    return try AlternatingFrames(deck: deck, lists: lists, warmUpFrames: 10)
}

/// Frames each showing cards not drawn before: the scene jumps 10 screens further each time.
final class NewCardsFrames {
    let renderer: Renderer
    var scene: Scene
    var list = DisplayList()
    let buffer = PixelBuffer(width: benchSize.width, height: benchSize.height)
    var offset = 0.0
    var time = 0.0

    init(cards: Int) throws {
        scene = Scene(deck: benchDeck(cards: cards), viewport: benchSize)
        renderer = try Renderer()
    }

    func renderNext() throws {
        offset += 10 * Double(benchSize.height)
        time += 1.0 / 60
        _ = scene.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 0)
        _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
        try renderer.render(list, deck: scene.deck, into: buffer)
    }
}

/// One card, scaled and turned, on a frame of its own, at two turns a thousandth of a radian
/// apart.
func turnedCardFrames() throws -> AlternatingFrames {
    let lists = (0..<2).map { index in
        var item = DisplayList.Item(
            content: .card(benchDeck(cards: 1).sections[0].cards[0], index: 0, section: 0, item: 0),
            frame: Rect(x: 40, y: 400, width: 1840, height: 160))
        item.scale = 0.9
        item.rotation = 0.05 + 0.001 * Double(index)
        var list = DisplayList()
        list.items = [item]
        return list
    }
    // Four warm-up frames: a raster's map of uniform blocks is built in its third frame.
    return try AlternatingFrames(deck: benchDeck(cards: 1), lists: lists, warmUpFrames: 4)
}

/// A slow scroll over cards whose rasters and text layers are all cached: the scene computes the
/// frame for its target time and the renderer draws it, as `marquee run` does each vblank. A
/// warm-up scene passes over the range twice first; the measured scene is a fresh one scrolling
/// the same range with the same renderer, so nothing new is drawn while measuring.
final class ScrollingFrames {
    let renderer: Renderer
    let deck: Deck
    var scene: Scene
    var list = DisplayList()
    let buffer = PixelBuffer(width: benchSize.width, height: benchSize.height)
    var time = 0.0
    static let start = 5_000.5
    static let range = 300.0  // px, covered in 100 s: 3 px/s, fractional offsets every frame

    init(cards: Int) throws {
        deck = benchDeck(cards: cards)
        renderer = try Renderer()
        var warmUp = Scene(deck: deck, viewport: benchSize)
        for offset in stride(from: Self.start, through: Self.start + Self.range + 8, by: 4) + [Self.start] {
            _ = warmUp.scroll(to: .offset(offset), duration: 0, curve: .linear, tag: 0)
            _ = warmUp.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
            try renderer.render(list, deck: deck, into: buffer)
            try renderer.render(list, deck: deck, into: buffer)
        }
        scene = Scene(deck: deck, viewport: benchSize)
        _ = scene.scroll(to: .offset(Self.start), duration: 0, curve: .linear, tag: 0)
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        _ = scene.scroll(to: .offset(Self.start + Self.range), duration: 100, curve: .linear, tag: 1)
        try renderNext()
    }

    func renderNext() throws {
        time += 1.0 / 60
        _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
        try renderer.render(list, deck: deck, into: buffer)
    }
}

/// Steady-state frames drawn in bands of 32 rows straight into two alternating "scan-out"
/// buffers (each band copied row by row into a frame-sized buffer, as the band scan-out copies it
/// unturned). Three lists half a pixel apart in turn over two buffers, so every frame differs both
/// from the one on screen and from the one in the buffer it is written into: every row is drawn.
final class BandFrames {
    let renderer: Renderer
    let deck: Deck
    let lists: [DisplayList]
    var frame = 0
    let band = BandBuffer(frameWidth: benchSize.width, frameHeight: benchSize.height, rows: 32)
    let buffers = (0..<2).map { _ in PixelBuffer(width: benchSize.width, height: benchSize.height) }

    init(cards: Int, offset: Double) throws {
        let deck = benchDeck(cards: cards)
        self.deck = deck
        lists = (0..<3).map { index in
            var scene = Scene(deck: deck, viewport: benchSize)
            _ = scene.scroll(to: .offset(offset + 0.5 * Double(index)), duration: 0, curve: .linear, tag: 0)
            var list = DisplayList()
            _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
            return list
        }
        renderer = try Renderer()
        for _ in 0..<12 { try render() }
    }

    func render() throws {
        let target = buffers[frame % 2]
        let onScreen = buffers[(frame + 1) % 2]
        let changed = try renderer.render(
            lists[frame % 3], deck: deck, bandsFor: target, onScreen: onScreen, through: band
        ) { view, window in
            for y in window {
                (target.baseAddress + y * target.stride).update(
                    from: view.baseAddress + y * view.stride, count: view.width)
            }
        }
        precondition(!changed.isEmpty, "BandFrames: a frame drew nothing")
        frame += 1
    }
}
