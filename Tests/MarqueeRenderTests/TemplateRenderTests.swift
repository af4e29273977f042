import CPixman
import Glibc
import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

/// Cards drawn from deck templates: every element kind, alignment and overflow against golden
/// pictures (tolerance: `ImageComparison`, 4 levels a channel on at most 0.2 % of the pixels; a
/// mismatch writes `Goldens/NAME_err.png`), the marquee's offset over time, and the rows a
/// frame redraws when only a marquee moves or one field changes.
final class TemplateRenderTests: XCTestCase {
    static let size = PixelSize(width: 480, height: 500)

    override func setUp() {
        // Clock elements show local time; the goldens are drawn in UTC.
        setenv("TZ", "UTC", 1)
        tzset()
    }

    static func deck() throws -> Deck {
        try DeckDecoder.decode(
            """
            {"layout": {"insets": 10, "spacing": 8, "cardHeight": 80},
             "style": {"background": "#203048", "cornerRadius": 10, "bodySize": 14, "titleSize": 20, "padding": 10},
             "templates": {
               "departure": {"height": 84, "elements": [
                 {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 8},
                 {"text": "time", "left": 18, "top": 8, "width": 80, "size": 22, "weight": "bold"},
                 {"text": "destination", "left": 104, "top": 8, "right": 140, "size": 20},
                 {"text": "platform", "right": 12, "top": 8, "width": 120, "size": 20, "align": "end"},
                 {"text": "calling", "left": 104, "top": 48, "right": 120, "size": 14, "overflow": "marquee", "speed": 40, "pause": 1},
                 {"text": "status", "right": 12, "top": 48, "width": 100, "size": 14, "align": "end",
                  "color": {"field": "status", "map": {"On time": "#1e7a42", "Delayed": "#b86e00"}, "default": "#c62828"}}
               ]},
               "aligned": {"height": 96, "elements": [
                 {"box": "#dde6f5", "left": 8, "right": 8, "top": 6, "height": 26, "radius": 8},
                 {"text": "word", "left": 8, "right": 8, "top": 8, "size": 16, "align": "left"},
                 {"text": "word", "left": 8, "right": 8, "top": 8, "size": 16, "align": "center", "color": "#0050a0"},
                 {"text": "word", "left": 8, "right": 8, "top": 8, "size": 16, "align": "right", "color": "#a00050"},
                 {"text": "hebrew", "left": 8, "width": "50%", "top": 40, "size": 16, "align": "start"},
                 {"text": "hebrew", "right": 8, "width": "45%", "top": 40, "size": 16, "align": "end", "direction": "ltr"},
                 {"text": "long", "left": 8, "right": "50%", "top": 62, "size": 13, "lines": 2},
                 {"text": "long", "left": "52%", "right": 8, "top": 62, "size": 13, "overflow": "clip"}
               ]},
               "media": {"height": 90, "elements": [
                 {"image": "photo", "left": 8, "top": 8, "width": 96, "height": 74, "radius": 10, "placeholder": "#8899aa"},
                 {"image": "missing", "left": 112, "top": 8, "width": 74, "height": 74, "placeholder": "#bb7755"},
                 {"text": "name", "left": 196, "top": 10, "right": 90, "size": 18, "weight": 600},
                 {"text": "price", "right": 10, "top": 10, "width": 76, "size": 18, "align": "right"},
                 {"clock": "%H:%M:%S", "left": 196, "top": 48, "width": 120, "size": 16, "color": "#444444"}
               ]},
               "ticket": {"height": 90, "elements": [
                 {"text": "number", "left": 0, "right": 0, "top": 4, "size": 72, "weight": "bold", "align": "center"}
               ]}
             },
             "sections": [{"cards": [
               {"id": "d1", "template": "departure", "fields": {"time": "06:20", "destination": "Carrow Bay",
                 "platform": "Platform 4", "calling": "Calling at Alderley, Brightwater, Dunmore and Eastfield",
                 "status": "On time", "accent": "#2ea05a"}},
               {"id": "d2", "template": "departure", "fields": {"time": "06:34", "destination": "Harrowgate Central via the coast",
                 "platform": "Platform 12", "calling": "Fast", "status": "Cancelled", "accent": "#d64545"}},
               {"id": "a1", "template": "aligned", "fields": {"word": "Mid", "hebrew": "שלום עולם",
                 "long": "A sentence long enough to need more room than these few columns give it"}},
               {"id": "m1", "template": "media", "fields": {"photo": "/images/cake.png", "missing": "",
                 "name": "Lemon cake", "price": "€3.20"}},
               {"id": "q1", "template": "ticket", "fields": {"number": "A 042"}}
             ]}]}
            """)
    }

    /// A 96x74 picture: a diagonal gradient, opaque.
    static func picture() throws -> PixmanImage {
        let image = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 96, height: 74)
        let pixels = image.pixels!.assumingMemoryBound(to: UInt32.self)
        for y in 0..<74 {
            for x in 0..<96 {
                pixels[y * image.stride / 4 + x] =
                    0xFF00_0000 | UInt32(x * 255 / 95) << 16 | UInt32(y * 255 / 73) << 8 | 0x60
            }
        }
        return image
    }

    /// The frame at display-link time `time`, the clock reading 12:34:56 UTC at time 10.
    static func render(
        _ deck: Deck, time: Double, renderer: Renderer, into buffer: PixelBuffer, scene: inout Scene
    ) throws -> RowBands {
        var list = DisplayList()
        scene.clockOffset = 1_699_920_000 + 45_296 - 10  // 1_699_920_000 is a midnight, UTC
        _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
        return try renderer.render(list, deck: scene.deck, into: buffer)
    }

    static func same(_ first: PixelBuffer, _ second: PixelBuffer) -> Bool {
        memcmp(first.baseAddress, second.baseAddress, first.byteCount) == 0
    }

    func testEveryElementKindAlignmentAndOverflow() throws {
        let deck = try Self.deck()
        let renderer = try Renderer()
        let images = MemoryImageProvider()
        images.states["/images/cake.png"] = .ready(try Self.picture(), readyAt: 0)
        renderer.imageProvider = images
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        // At 11.5 s the marquee (about 154 px to travel at 40 px/s, resting 1 s: a 9.7 s period)
        // has moved some 32 px.
        _ = try Self.render(deck, time: 11.5, renderer: renderer, into: buffer, scene: &scene)
        try GoldenImageTests.assertGolden(buffer, "templates")
        XCTAssertEqual(
            images.asked.first, ImageRequest(path: "/images/cake.png", width: 96, height: 74, fit: .contain, radius: 10)
        )
    }

    func testMarqueeOffsetAtCheckpointsOfTheClock() {
        // 120 px to travel at 60 px/s, resting 1.5 s at each end: a period of 7 s.
        func offset(_ time: Double) -> Int { MarqueeText.offset(at: time, travel: 120, speed: 60, pause: 1.5) }
        XCTAssertEqual(offset(0), 0)
        XCTAssertEqual(offset(1.5), 0, "the end of the first pause")
        XCTAssertEqual(offset(2.5), 60, "half way")
        XCTAssertEqual(offset(3.5), 120, "the far end")
        XCTAssertEqual(offset(4.9), 120, "resting at the far end")
        XCTAssertEqual(offset(6.0), 60, "half way back")
        XCTAssertEqual(offset(7.0), 0, "back at the start, a period later")
        XCTAssertEqual(offset(9.5), 60, "the same as 2.5 s")
        XCTAssertEqual(MarqueeText.offset(at: 3, travel: 0, speed: 60, pause: 1.5), 0, "text that fits stays")
    }

    func testAMarqueeTooLongToScrollEndsWithAnEllipsis() throws {
        let deck = try Self.deck()
        let resolver = CardResolver(style: deck.style, fonts: try defaultStyleFonts(deck.style), imagePath: { $0 })
        var card = deck.sections[0].cards[0]
        card.fields["calling"] = String(repeating: "Calling at Alderley ", count: 1_000)
        let content = resolver.content(card, template: deck.templates["departure"], width: 460, height: 84)
        XCTAssertTrue(content.marquees.isEmpty, "no strip some 150,000 px long")
        let line = try XCTUnwrap(content.texts.first { $0.baseline == 48 + 11 })
        XCTAssertLessThanOrEqual(line.line.width, 460 - 104 - 120)
    }

    func testAMovingMarqueeRedrawsOnlyItsOwnRows() throws {
        let deck = try Self.deck()
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try Self.render(deck, time: 1, renderer: renderer, into: buffer, scene: &scene)
        // The text rests for its 1 s pause from time 0, then moves: at 1 s the next frame is
        // wanted at once.
        XCTAssertEqual(renderer.nextRedraw, 1)
        let changed = try Self.render(deck, time: 1.5, renderer: renderer, into: buffer, scene: &scene)
        // Card d1 starts at y 10; its calling-at element is at top 48, 14 px text: rows 58..<83,
        // widened by half the size.
        XCTAssertFalse(changed.isEmpty)
        XCTAssertGreaterThanOrEqual(changed.covering.lowerBound, 10 + 48 - 7)
        XCTAssertLessThanOrEqual(changed.covering.upperBound, 10 + 48 + 18 + 7)
        // The frame drawn in part equals the same frame drawn whole.
        let whole = PixelBuffer(width: Self.size.width, height: Self.size.height)
        var fresh = Scene(deck: deck, viewport: Self.size)
        _ = try Self.render(deck, time: 1.5, renderer: try Renderer(), into: whole, scene: &fresh)
        XCTAssertTrue(Self.same(buffer, whole), "the marquee's rows are redrawn to the whole frame's pixels")
    }

    func testAFieldUpdateRedrawsOnlyTheChangedElementsRows() throws {
        var deck = try Self.deck()
        // Nothing else changing by itself: the calling-at text fits, the clock shows the date.
        deck.sections[0].cards[0].fields["calling"] = "Fast"
        deck.templates["media"]!.elements[4].kind = .clock(format: "%Y")
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try Self.render(deck, time: 1, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertTrue(try Self.render(deck, time: 1.1, renderer: renderer, into: buffer, scene: &scene).isEmpty)
        try scene.updateCard(.id("d1"), with: CardPatch(fields: ["status": "Delayed"]))
        var time = 1.2
        while scene.needsFrame {
            let changed = try Self.render(scene.deck, time: time, renderer: renderer, into: buffer, scene: &scene)
            // The status element: top 48 of the card at y 10, 14 px text (one 18 px line, widened
            // by half its size and the damage's reach).
            XCTAssertGreaterThanOrEqual(changed.covering.lowerBound, 10 + 48 - 7 - 4, "at \(time)")
            XCTAssertLessThanOrEqual(changed.covering.upperBound, 10 + 48 + 18 + 7 + 4, "at \(time)")
            time += 1.0 / 60
        }
        let whole = PixelBuffer(width: Self.size.width, height: Self.size.height)
        var fresh = Scene(deck: scene.deck, viewport: Self.size)
        _ = try Self.render(scene.deck, time: time, renderer: try Renderer(), into: whole, scene: &fresh)
        XCTAssertTrue(Self.same(buffer, whole), "after the crossfade the card is the new card")
    }

    func testAClockAsksForAFrameExactlyWhenItsTextChanges() throws {
        var deck = try Self.deck()
        deck.templates["media"]!.elements[4].kind = .clock(format: "%H:%M")
        deck.sections[0].cards[0].fields["calling"] = "Fast"
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        // At time 10 the clock reads 12:34:56; "%H:%M" next changes at 12:35:00, 4 s later.
        _ = try Self.render(deck, time: 10, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertEqual(try XCTUnwrap(renderer.nextRedraw), 14, accuracy: 1e-6)
        XCTAssertTrue(try Self.render(deck, time: 13.9, renderer: renderer, into: buffer, scene: &scene).isEmpty)
        XCTAssertFalse(try Self.render(deck, time: 14, renderer: renderer, into: buffer, scene: &scene).isEmpty)
        XCTAssertEqual(try XCTUnwrap(renderer.nextRedraw), 74, accuracy: 1e-6, "then a minute later")
        XCTAssertEqual(ClockFormat.text("%H:%M", at: 1_700_000_000), "22:13")
    }

    func testAClockOnATintedCardKeepsTime() throws {
        var deck = try Self.deck()
        deck.templates["media"]!.elements[4].kind = .clock(format: "%H:%M")
        deck.sections[0].cards[0].fields["calling"] = "Fast"
        var bindings = CardBindings()
        bindings.tint = ColorKeyframes(
            space: .rgb,
            keyframes: Keyframes([.init(at: 0, value: SIMD4(1, 0, 0, 0.2)), .init(at: 1, value: SIMD4(1, 0, 0, 0.2))]))
        deck.bindings.cards = bindings
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try Self.render(deck, time: 10, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertEqual(try XCTUnwrap(renderer.nextRedraw), 14, accuracy: 1e-6)
        XCTAssertTrue(try Self.render(deck, time: 13.9, renderer: renderer, into: buffer, scene: &scene).isEmpty)
        let changed = try Self.render(deck, time: 14, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertFalse(changed.isEmpty, "12:35 is drawn")
        let whole = PixelBuffer(width: Self.size.width, height: Self.size.height)
        var fresh = Scene(deck: deck, viewport: Self.size)
        _ = try Self.render(deck, time: 14, renderer: try Renderer(), into: whole, scene: &fresh)
        XCTAssertTrue(Self.same(buffer, whole), "the clock on the tinted card shows the time, as a fresh frame does")
    }

    func testImagesAheadInTheScrollAreFetchedAndAReadyImageFadesIn() throws {
        var deck = try Self.deck()
        deck.sections[0].cards[0].fields["calling"] = "Fast"
        deck.templates["media"]!.elements[4].kind = .clock(format: "%Y")
        var section = deck.sections[0]
        for number in 0..<12 {
            section.cards.append(
                Card(id: "m\(number)", template: "media", fields: ["photo": "/images/\(number).png", "name": "N"]))
        }
        deck.sections[0] = section
        let renderer = try Renderer()
        let images = MemoryImageProvider()
        renderer.imageProvider = images
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try Self.render(deck, time: 1, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertEqual(renderer.nextRedraw, 1, "a pending image is looked at again next frame")
        // The viewport shows cards up to m0 or so; the two after the last in view are prefetched.
        XCTAssertFalse(images.prefetched.isEmpty)
        XCTAssertTrue(images.prefetched.allSatisfy { $0.path.hasPrefix("/images/") && $0.width == 96 })
        let lastShown = images.asked.map(\.path)
        XCTAssertTrue(Set(images.prefetched.map(\.path)).isDisjoint(with: lastShown), "ahead, not in view")
        // Ready at 2 s: half faded in at 2 s + half the transition.
        for number in 0..<12 { images.states["/images/\(number).png"] = .ready(try Self.picture(), readyAt: 2) }
        images.states["/images/cake.png"] = .ready(try Self.picture(), readyAt: 2)
        _ = try Self.render(
            deck, time: 2 + deck.style.transitionDuration / 2, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertEqual(renderer.nextRedraw, 2 + deck.style.transitionDuration / 2, "still fading")
        _ = try Self.render(deck, time: 3, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertNil(renderer.nextRedraw, "faded in: nothing changes by itself")
    }

    /// Boxes along an edge, across a corner band's middle, inside, and at a corner: the card
    /// written as constants over the uniform background (`CardInterior`) equals its surface
    /// composited whole over that background, pixel for pixel.
    func testBoxesOnTheFlatPathEqualTheSurfaceCompositedWhole() throws {
        let deck = try DeckDecoder.decode(
            """
            {"layout": {"insets": 20, "cardHeight": 90},
             "style": {"background": "#203048", "cornerRadius": 14, "cardAlpha": 0.9},
             "templates": {"boxes": {"elements": [
               {"box": "#ff0000", "left": "40%", "top": 0, "width": 30, "height": 6},
               {"box": "accent", "right": 0, "top": 0, "bottom": 0, "width": 12},
               {"box": "#0000ff80", "left": 100, "top": 30, "width": 50, "height": 20},
               {"box": "#ffff00", "left": 0, "bottom": 0, "width": 40, "height": 10}
             ]}},
             "sections": [{"cards": [{"id": "b", "template": "boxes", "fields": {"accent": "#00c060"}}]}]}
            """)
        let size = PixelSize(width: 300, height: 140)
        var scene = Scene(deck: deck, viewport: size)
        let buffer = PixelBuffer(width: size.width, height: size.height)
        _ = try Self.render(deck, time: 1, renderer: try Renderer(), into: buffer, scene: &scene)

        let resolver = CardResolver(style: deck.style, fonts: try defaultStyleFonts(deck.style), imagePath: { $0 })
        let content = resolver.content(
            deck.sections[0].cards[0], template: deck.templates["boxes"], width: 260, height: 90)
        XCTAssertEqual(content.surface.boxes.count, 4)
        XCTAssertNotNil(
            CardInterior(
                surface: content.surface, frame: Rect(x: 20, y: 20, width: 260, height: 90),
                background: deck.style.background),
            "the card takes the flat path")
        let reference = try PixmanImage(format: PIXMAN_x8r8g8b8, width: size.width, height: size.height)
        var background = pixman_color_t(deck.style.background)
        var whole = pixman_box32_t(x1: 0, y1: 0, x2: Int32(size.width), y2: Int32(size.height))
        pixman_image_fill_boxes(PIXMAN_OP_SRC, reference.handle, &background, 1, &whole)
        let surface = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 260, height: 90)
        SurfacePainter.paint(content.surface, into: surface)
        pixman_image_composite32(
            PIXMAN_OP_OVER, surface.handle, nil, reference.handle, 0, 0, 0, 0, 20, 20, 260, 90)
        let drawn = buffer.baseAddress
        let expected = reference.pixels!.assumingMemoryBound(to: UInt32.self)
        var differing = 0
        for y in 0..<size.height {
            for x in 0..<size.width
            where drawn[y * buffer.stride + x] & 0xFF_FFFF != expected[y * reference.stride / 4 + x] & 0xFF_FFFF {
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }
}
