import MarqueeCore
import MarqueeRender
import XCTest

/// The renderer redraws only the rows a frame changes in the buffer it draws into. Whatever it
/// skips must already be right: every frame of a session (idle frames, an update, inserts,
/// deletes and moves with their transitions, a scroll, a section deleted and one inserted, the
/// appear sequence, keyframed transforms and tints) drawn into
/// two alternating buffers, as the software backend does, must equal the same frame drawn whole.
final class FrameDamageTests: XCTestCase {
    private let size = PixelSize(width: 320, height: 400)

    private func deck() -> Deck {
        var deck = Deck()
        deck.layout.insets = EdgeInsets(all: 12)
        deck.layout.spacing = 8
        deck.layout.cardHeight = 70
        deck.layout.headerHeight = 30
        deck.style.titleSize = 18
        deck.style.bodySize = 12
        deck.style.headerSize = 18
        deck.style.padding = 10
        deck.style.cornerRadius = 10
        deck.style.background = Color(red: 0x20, green: 0x30, blue: 0x48)
        func cards(_ prefix: String, _ count: Int) -> [Card] {
            (0..<count).map { index in
                Card(
                    id: "\(prefix)\(index)", title: "\(prefix.uppercased()) \(index) · Tåg",
                    body: "Platform \(index % 7) · line two\nand a third",
                    color: index % 4 == 3 ? Color(hex: "#ffffff90") : nil,
                    accent: index % 3 == 0 ? Color(hex: "#2ea05a") : nil)
            }
        }
        deck.sections = [
            Section(title: "Departures", cards: cards("d", 9)), Section(title: "Arrivals", cards: cards("a", 9)),
        ]
        return deck
    }

    func testFramesDrawnInPartsEqualFramesDrawnWhole() throws {
        var deck = deck()
        var bindings = CardBindings()
        bindings.input = .position
        bindings.rotation = Keyframes([.init(at: 0, value: -0.2), .init(at: 0.25, value: 0)])
        bindings.tint = ColorKeyframes(
            space: .rgb,
            keyframes: Keyframes([.init(at: 0.8, value: SIMD4(1, 0, 0, 0)), .init(at: 1, value: SIMD4(1, 0, 0, 0.4))]))
        deck.bindings.cards = bindings
        var scene = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        var time = 0.0
        let damaged = try Renderer()
        let whole = try Renderer()
        let buffers = [
            PixelBuffer(width: size.width, height: size.height), PixelBuffer(width: size.width, height: size.height),
        ]
        var frame = 0
        var rowsRedrawn = 0
        var idleFramesRedrawn = 0

        func run(frames count: Int, idle: Bool = false) throws {
            for _ in 0..<count {
                time += 1.0 / 60
                _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
                let buffer = buffers[frame % 2]
                let changed = try damaged.render(list, deck: scene.deck, into: buffer)
                rowsRedrawn += changed.rowCount
                if idle, frame >= 2 { idleFramesRedrawn += changed.rowCount }
                // A new buffer every time: the reference renderer knows nothing of it, so it draws
                // the whole frame.
                let reference = PixelBuffer(width: size.width, height: size.height)
                try whole.render(list, deck: scene.deck, into: reference)
                var differing = 0
                var first: String?
                buffer.withPixels { drawn in
                    reference.withPixels { expected in
                        for index in 0..<drawn.count where drawn[index] != expected[index] {
                            differing += 1
                            if first == nil {
                                first =
                                    "(\(index % size.width), \(index / size.width)): \(String(drawn[index], radix: 16))"
                                    + " instead of \(String(expected[index], radix: 16))"
                            }
                        }
                    }
                }
                XCTAssertEqual(differing, 0, "frame \(frame) (rows \(changed) redrawn): first at \(first ?? "")")
                frame += 1
            }
        }

        try run(frames: 4, idle: true)
        XCTAssertEqual(idleFramesRedrawn, 0, "nothing changed: nothing is redrawn")
        try scene.updateCard(
            at: 2, with: Card(id: "d2", title: "D 2 · Delayed", body: "Now at platform 9", color: Color(hex: "#ffe9b0"))
        )
        try run(frames: 25)
        try scene.insertCard(Card(id: "new", title: "Inserted", body: "in view"), at: 3)
        try run(frames: 25)
        try scene.deleteCard(at: 1)
        try run(frames: 25)
        try scene.moveCard(from: 0, to: 2)
        try run(frames: 25)
        _ = scene.scroll(to: .offset(260.5), duration: 0.3, curve: .easeInOut, tag: 1)
        try run(frames: 25)
        try scene.deleteSection(at: 0)
        try run(frames: 25)
        // Headers scaled and faded: a section sliding in, then everything appearing again.
        try scene.insertSection(Section(title: "Notices", cards: [Card(id: "n0", title: "Lifts", body: "All")]), at: 0)
        try run(frames: 25)
        scene.appear(stagger: 0.04, duration: 0.3)
        try run(frames: 40)
        XCTAssertLessThan(rowsRedrawn, frame * size.height * 3 / 4, "most frames were drawn in part")
    }
}
