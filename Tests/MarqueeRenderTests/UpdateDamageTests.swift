import CPixman
import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

/// Field updates and pictures on cards drawn from their whole raster (turned, scaled, faded or
/// tinted by keyframes, stale, growing in), frame by frame: each frame drawn into two alternating
/// buffers through the damage path equals the same frame drawn whole, and pictures appear on such
/// cards as on plain ones.
final class UpdateDamageTests: XCTestCase {
    private let size = PixelSize(width: 480, height: 420)
    /// The picture's colour (opaque) and the deck's background.
    private static let pictureColor: (r: Double, g: Double, b: Double) = (0x20, 0x80, 0xE0)
    private static let background: (r: Double, g: Double, b: Double) = (0x20, 0x30, 0x48)

    private func deck(keyframes: String = "", cards: String) throws -> Deck {
        try DeckDecoder.decode(
            """
            {\(keyframes)
             "layout": {"insets": 10, "spacing": 8, "cardHeight": 80},
             "style": {"background": "#203048", "cornerRadius": 10, "transitionDuration": 0.25},
             "templates": {
               "row": {"height": 96, "elements": [
                 {"box": "accent", "left": 0, "top": 0, "bottom": 0, "width": 8},
                 {"text": "name", "left": 20, "top": 8, "right": 150, "size": 24},
                 {"text": "status", "right": 12, "top": 8, "width": 120, "size": 16, "align": "end"},
                 {"text": "note", "left": 20, "top": 56, "right": 20, "size": 14}
               ]},
               "photo": {"height": 110, "elements": [
                 {"image": "pic", "left": 20, "top": 10, "width": 120, "height": 90, "placeholder": "#ff0000"},
                 {"text": "name", "left": 160, "top": 10, "right": 10, "size": 20}
               ]}
             },
             "sections": [{"title": "Board", "cards": [\(cards)]}]}
            """)
    }

    private static let rows = """
        {"id": "r0", "template": "row", "fields": {"name": "Amber", "status": "On time", "note": "Bay 1", "accent": "#2ea05a"}},
        {"id": "r1", "template": "row", "fields": {"name": "Bravo", "status": "On time", "note": "Bay 2", "accent": "#2e5aa0"}},
        {"id": "r2", "template": "row", "fields": {"name": "Cedar", "status": "Late", "note": "Bay 3", "accent": "#a02e5a"}}
        """

    /// A picture of one colour, the size of the photo template's box.
    private static func picture() throws -> PixmanImage {
        let image = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 120, height: 90)
        let pixels = image.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(image.stride / 4 * 90) { pixels[index] = 0xFF20_80E0 }
        return image
    }

    /// Draws frames of `scene` through the damage path (two alternating buffers, as the software
    /// backend does) and whole (a new buffer every frame), asserting they are equal.
    private final class Session {
        var scene: Scene
        var time = 1.0
        let damaged: Renderer
        let whole: Renderer
        let buffers: [PixelBuffer]
        var frame = 0
        var list = DisplayList()
        let size: PixelSize

        init(_ deck: Deck, size: PixelSize, images: MemoryImageProvider? = nil) throws {
            scene = Scene(deck: deck, viewport: size)
            // Wall-clock time of late 2023 (a card expiring in 2020 is stale).
            scene.clockOffset = 1_699_920_000
            damaged = try Renderer()
            whole = try Renderer()
            damaged.imageProvider = images
            whole.imageProvider = images
            buffers = [
                PixelBuffer(width: size.width, height: size.height),
                PixelBuffer(width: size.width, height: size.height),
            ]
            self.size = size
        }

        var shown: PixelBuffer { buffers[(frame + 1) % 2] }

        func run(frames count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
            for _ in 0..<count {
                time += 1.0 / 60
                _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
                let buffer = buffers[frame % 2]
                let changed = try damaged.render(list, deck: scene.deck, into: buffer)
                let reference = PixelBuffer(width: size.width, height: size.height)
                try whole.render(list, deck: scene.deck, into: reference)
                var differing = 0
                var first = ""
                buffer.withPixels { drawn in
                    reference.withPixels { expected in
                        for index in 0..<drawn.count where drawn[index] != expected[index] {
                            if differing == 0 {
                                first =
                                    "(\(index % size.width), \(index / size.width)): \(String(drawn[index], radix: 16))"
                                    + " instead of \(String(expected[index], radix: 16))"
                            }
                            differing += 1
                        }
                    }
                }
                XCTAssertEqual(
                    differing, 0, "frame \(frame) (rows \(changed) redrawn): first at \(first)", file: file, line: line)
                frame += 1
            }
        }

        /// Frames until the scene asks for none, and then one more to each buffer.
        func settle(file: StaticString = #filePath, line: UInt = #line) throws {
            var count = 0
            while scene.needsFrame || damaged.hasUnsettledImages, count < 600 {
                try run(frames: 1, file: file, line: line)
                count += 1
            }
            try run(frames: 2, file: file, line: line)
        }
    }

    private func assertNear(
        _ pixel: UInt32, _ expected: (r: Double, g: Double, b: Double), _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let got = (Double((pixel >> 16) & 0xFF), Double((pixel >> 8) & 0xFF), Double(pixel & 0xFF))
        XCTAssertLessThanOrEqual(
            max(abs(got.0 - expected.r), abs(got.1 - expected.g), abs(got.2 - expected.b)), 4,
            "\(message): \(String(pixel, radix: 16))", file: file, line: line)
    }

    private func blend(_ alpha: Double) -> (r: Double, g: Double, b: Double) {
        let (p, b) = (Self.pictureColor, Self.background)
        return (alpha * p.r + (1 - alpha) * b.r, alpha * p.g + (1 - alpha) * b.g, alpha * p.b + (1 - alpha) * b.b)
    }

    // MARK: Pictures on cards drawn whole

    /// A picture on a card faded by a keyframe, on a turned one, and on a stale one: the
    /// placeholder while it is decoded, then the picture fading in, redrawn through the damage
    /// path, and shown for good once faded in (the placeholder's raster was kept for ever).
    func testPicturesAppearOnCardsDrawnFromTheirWholeRaster() throws {
        let cards = """
            {"id": "p0", "template": "photo", "fields": {"pic": "/images/a.png", "name": "Faded"}},
            {"id": "p1", "template": "photo", "fields": {"pic": "/images/b.png", "name": "Stale"}, "expires": "2020-01-01T00:00:00Z"}
            """
        for (name, keyframes) in [
            ("opacity", ##""keyframes": {"cards": {"opacity": [{"at": 0, "value": 0.95}]}},"##),
            ("rotation", ##""keyframes": {"cards": {"rotation": [{"at": 0, "value": 0.02}]}},"##),
            ("tint", ##""keyframes": {"cards": {"tint": {"keyframes": [{"at": 0, "color": "#0000ff40"}]}}},"##),
        ] {
            let images = MemoryImageProvider()
            let session = try Session(try deck(keyframes: keyframes, cards: cards), size: size, images: images)
            try session.run(frames: 3)
            XCTAssertFalse(session.damaged.pendingImages.isEmpty, "\(name): pending while decoded")
            XCTAssertTrue(session.damaged.hasUnsettledImages, "\(name): `wait idle` waits")
            XCTAssertEqual(session.damaged.nextRedraw, session.time, "\(name): looked at again next frame")
            images.states["/images/a.png"] = .ready(try Self.picture(), readyAt: session.time + 1.0 / 60)
            images.states["/images/b.png"] = .ready(try Self.picture(), readyAt: session.time + 1.0 / 60)
            try session.run(frames: 4)
            XCTAssertTrue(session.damaged.isFadingInImages, "\(name): fading in")
            try session.settle()
            XCTAssertFalse(session.damaged.hasUnsettledImages, "\(name)")
            XCTAssertNil(session.damaged.nextRedraw, "\(name): nothing changes by itself")
            // The photo box's middle: 80 x 55 into the card.
            let cardsAt = session.list.items.compactMap { item -> (String, Rect)? in
                guard case .card(let card, _, _, _) = item.content else { return nil }
                return (card.id, item.frame)
            }
            let faded = try XCTUnwrap(cardsAt.first { $0.0 == "p0" }?.1)
            let stale = try XCTUnwrap(cardsAt.first { $0.0 == "p1" }?.1)
            let shown = session.shown
            let alpha = name == "opacity" ? 0.95 : 1
            if name != "tint" {
                assertNear(
                    shown.pixel(x: Int(faded.x) + 80, y: Int(faded.y) + 55), blend(alpha), "\(name): the picture")
            } else {
                // Tinted blue: the picture's blue, not the placeholder's red.
                let pixel = shown.pixel(x: Int(faded.x) + 80, y: Int(faded.y) + 55)
                XCTAssertTrue(pixel & 0xFF > 0xC0 && (pixel >> 16) & 0xFF < 0x40, String(pixel, radix: 16))
            }
            // The stale card at the style's stale opacity (0.45), under the keyframe's.
            if name == "opacity" {
                assertNear(
                    shown.pixel(x: Int(stale.x) + 80, y: Int(stale.y) + 55), blend(alpha * 0.45),
                    "\(name): the stale card's picture")
            }
        }
    }

    // MARK: Field updates

    /// Two updates of one card in the same frame: the rows of both changed elements are redrawn
    /// (only the first's were, and the accent bar kept its old colour at the top).
    func testTwoFieldUpdatesOfOneCardInOneFrame() throws {
        let session = try Session(try deck(cards: Self.rows), size: size)
        try session.run(frames: 3)
        try session.scene.updateCard(.id("r1"), with: CardPatch(fields: ["status": "Delayed"]))
        try session.scene.updateCard(.id("r1"), with: CardPatch(fields: ["accent": "#e8a33d"]))
        try session.settle()
        // And one more, a frame after another, with the first still fading.
        try session.scene.updateCard(.id("r0"), with: CardPatch(fields: ["note": "Bay 7"]))
        try session.run(frames: 3)
        try session.scene.updateCard(.id("r0"), with: CardPatch(fields: ["name": "Amber Two"]))
        try session.settle()
    }

    /// A field update of cards turned, scaled, faded and tinted by keyframes: the whole turned
    /// card is redrawn (the changed rows were taken as the unturned card's).
    func testFieldUpdatesOfCardsTransformedByKeyframes() throws {
        for keyframes in [
            ##""keyframes": {"cards": {"rotation": [{"at": 0, "value": 0.05}]}},"##,
            ##""keyframes": {"cards": {"scale": [{"at": 0, "value": 0.95}]}},"##,
            ##""keyframes": {"cards": {"opacity": [{"at": 0, "value": 0.8}]}},"##,
            ##""keyframes": {"cards": {"tint": {"keyframes": [{"at": 0, "color": "#ff000040"}]}}},"##,
        ] {
            let session = try Session(try deck(keyframes: keyframes, cards: Self.rows), size: size)
            try session.run(frames: 3)
            try session.scene.updateCard(.id("r1"), with: CardPatch(fields: ["name": "Omega"]))
            try session.settle()
            try session.scene.updateCard(.id("r2"), with: CardPatch(fields: ["status": "Gone", "note": "None"]))
            try session.scene.updateCard(.id("r2"), with: CardPatch(fields: ["accent": "#ffffff"]))
            try session.settle()
        }
    }

    /// A card inserted, updated while it grows in, then deleted: nothing of it stays (its
    /// crossfade drew the whole scaled card while its damage named the unscaled rows).
    func testACardUpdatedWhileGrowingInThenDeletedLeavesNothing() throws {
        for (cards, grown, between) in [("", 6, 0), ("", 12, 0), (Self.rows, 6, 0), (Self.rows, 6, 2)] {
            let session = try Session(try deck(cards: cards), size: size)
            try session.run(frames: 3)
            try session.scene.insertCard(
                Card(id: "n", template: "row", fields: ["name": "New", "accent": "#ff0000"]), at: 0)
            try session.run(frames: grown)
            try session.scene.updateCard(.id("n"), with: CardPatch(fields: ["name": "Newer"]))
            try session.run(frames: between)
            try session.scene.deleteCard(.id("n"))
            try session.settle()
        }
        let session = try Session(try deck(cards: Self.rows), size: size)
        try session.run(frames: 3)
        // Then an update mid-way through a replace's crossfade, and a move.
        try session.scene.updateCard(.id("r1"), with: Card(id: "r1", title: "Plain now"))
        try session.run(frames: 4)
        try session.scene.updateCard(.id("r1"), with: CardPatch(title: "Plain again"))
        try session.run(frames: 4)
        try session.scene.moveCard(from: 0, to: 2)
        try session.settle()
    }
}
