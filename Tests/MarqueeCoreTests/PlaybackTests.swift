import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Signage playback on the scene, driven by a virtual clock as the session drives it: a frame at
/// every vblank while something moves, and while nothing does, the next frame at the first
/// vblank whose target reaches the dwell's end (`nextPlaybackChange`), none before.
final class PlaybackTests: XCTestCase {
    /// A list of `count` untitled cards 100 px high, 20 px apart, insets 40, in a 640x480 view:
    /// card i spans 40 + 120 i to 140 + 120 i; the deck repeats every 120 × count px.
    static func deck(cards count: Int) -> Deck {
        var deck = SmallDecks.deck(sectionCounts: [count], titled: false)
        deck.layout.cardHeight = 100
        deck.layout.spacing = 20
        deck.layout.insets = EdgeInsets(all: 40)
        return deck
    }

    static let viewport = PixelSize(width: 640, height: 480)

    /// The virtual clock of the software backend: vblank k at k × period, a frame's target one
    /// period after its vblank.
    struct Driver {
        var scene: Scene
        let period: Double
        var vblank = 0
        var list = DisplayList()
        /// (target, offset) of every frame drawn.
        var frames: [(target: Double, offset: Double)] = []

        init(_ scene: Scene, refresh: Double = 60) {
            self.scene = scene
            period = 1 / refresh
        }

        var now: Double { Double(vblank) * period }

        mutating func frame(atVblank index: Int) {
            vblank = index
            let time = FrameTime(timestamp: Double(index) * period, targetTimestamp: Double(index + 1) * period)
            _ = scene.frame(at: time, into: &list)
            frames.append((time.targetTimestamp, list.offset))
        }

        /// Runs until the clock reaches `end`, drawing only the frames the scene asks for.
        mutating func run(until end: Double) {
            while true {
                var next: Int
                if scene.needsFrame {
                    next = vblank + 1
                } else if let change = scene.nextPlaybackChange {
                    // The first vblank whose frame's target is at or after the change.
                    next = max(vblank + 1, Int((change / period - 1 - 1e-9).rounded(.up)))
                } else {
                    vblank = max(vblank, Int((end / period).rounded(.down)))
                    return
                }
                if Double(next) * period > end {
                    vblank = max(vblank, Int((end / period).rounded(.down)))
                    return
                }
                frame(atVblank: next)
            }
        }

        func offset(atTarget target: Double) -> Double? {
            frames.last { $0.target <= target + 1e-9 }?.offset
        }
    }

    func testPagesEndOnACardRowDwellAndRewind() {
        var driver = Driver(Scene(deck: Self.deck(cards: 10), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 2, duration: 1, curve: .linear), now: driver.now)
        XCTAssertEqual(driver.scene.nextPlaybackChange!, 2, accuracy: 1e-9, "the first page rests a dwell")
        XCTAssertFalse(driver.scene.needsFrame, "nothing is drawn while a page rests")
        driver.run(until: 10.9)
        // Card 3 (400 to 500) is cut by the bottom edge at 480: the next page starts with it, one
        // spacing (20 px) below the top, so nothing of card 2 shows: 380. That page holds cards 3
        // to 6 whole (6 ends at 860, the page's bottom edge), so card 7 (880) starts the next: 860,
        // past the deck's end of 780 (the last page has room below its card). Then back to 0.
        let moves: [(start: Double, from: Double, to: Double)] = [(2, 0, 380), (5, 380, 860), (8, 860, 0)]
        for move in moves {
            XCTAssertEqual(
                driver.offset(atTarget: move.start - 0.01)!, move.from, accuracy: 1e-9, "rest before \(move.start)")
            for fraction in [0.25, 0.5, 0.75] {
                let target = move.start + fraction
                let frame = driver.frames.first { abs($0.target - target) < 1e-6 }
                XCTAssertNotNil(frame, "a frame at \(target)")
                XCTAssertEqual(
                    frame!.offset, move.from + (move.to - move.from) * fraction, accuracy: 1e-6,
                    "a linear move at \(fraction) of its second, starting exactly when the dwell ends")
            }
            XCTAssertEqual(
                driver.offset(atTarget: move.start + 1)!, move.to, accuracy: 1e-9, "the page at \(move.start + 1)")
        }
        // Frames are drawn only while a page moves (each move: from its start to its end), never while one rests.
        for frame in driver.frames.dropFirst() {
            XCTAssertTrue(
                moves.contains { frame.target >= $0.start - 1e-9 && frame.target <= $0.start + 1 + 1e-9 },
                "no frame during a dwell (frame at \(frame.target))")
        }
        XCTAssertEqual(driver.frames.count, 1 + 3 * 61, "61 frames a move: its start (progress 0) to its end")
    }

    /// Bands take their height from the page: with a top band of 96 and a bottom one of 48 the
    /// content has 336 px of the 480, and a page ends on the card the space cuts, drawn below the
    /// top band.
    func testPagesFollowTheSpaceTheBandsLeave() throws {
        let cards = (0..<10).map { "{\"id\": \"c\($0)\"}" }.joined(separator: ",")
        let deck = try DeckDecoder.decode(
            """
            {"layout": {"insets": 40, "spacing": 20, "cardHeight": 100},
             "templates": {"bar": {"elements": [{"clock": "%H:%M", "left": 8, "top": 8, "width": 100}]}},
             "overlays": [{"edge": "top", "height": 96, "template": "bar"}, {"edge": "bottom", "height": 48, "template": "bar"}],
             "sections": [{"cards": [\(cards)]}]}
            """)
        var driver = Driver(Scene(deck: deck, viewport: Self.viewport))
        XCTAssertEqual(driver.scene.scrollSpaceHeight, 480 - 96 - 48)
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 2, duration: 1, curve: .linear), now: driver.now)
        driver.run(until: 3.5)
        // Card 2 (280 to 380) is cut by the space's bottom at 336: the next page starts with it one
        // spacing below the space's top.
        XCTAssertEqual(driver.offset(atTarget: 3.5)!, 260, accuracy: 1e-9)
        let card2 = try XCTUnwrap(
            driver.list.items.first { if case .card(let card, _, _, _) = $0.content { card.id == "c2" } else { false } }
        )
        XCTAssertEqual(card2.frame.y, 96 + 20, accuracy: 1e-9, "drawn one spacing under the top band")
    }

    func testCardsMoveNAtATimeAndACardTallerThanThePageStillPages() {
        var driver = Driver(Scene(deck: Self.deck(cards: 10), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .cards(2), dwell: 1, duration: 0), now: 0)
        driver.run(until: 6.5)
        // Two cards (240 px) at a time, each page's first card 20 px down; at 740 (card 6 at the
        // top) the last card ends exactly at the bottom edge: rewind.
        let rests = [1.5, 2.5, 3.5, 4.5, 5.5].map { driver.offset(atTarget: $0)! }
        XCTAssertEqual(rests, [260, 500, 740, 0, 260])

        var tall = Self.deck(cards: 3)
        tall.sections[0].cards[0].height = 1000
        var paging = Driver(Scene(deck: tall, viewport: Self.viewport))
        paging.frame(atVblank: 0)
        _ = paging.scene.play(PlaybackSettings(mode: .pages, dwell: 1, duration: 0), now: 0)
        paging.run(until: 1.5)
        XCTAssertEqual(paging.offset(atTarget: 1.5)!, 1040, "past the 1000 px card to the next row")
    }

    func testCardsInAGridMoveWholeRowsAndHeadersArePagesToo() {
        // Three columns, 12 cards in 4 rows of 120 px from 40; titled: a 60 px header row first.
        var deck = SmallDecks.deck(sectionCounts: [12], titled: true, kind: .grid, columns: 3)
        deck.layout.cardHeight = 100
        deck.layout.spacing = 20
        deck.layout.headerHeight = 60
        deck.layout.insets = EdgeInsets(all: 40)
        let viewport = PixelSize(width: 640, height: 300)
        // Card 3 starts the second row: `cards 3` moves a row at a time; `cards 1` too (at least
        // a row, the first move only past the header); `cards 6` two rows, then rewinds once the
        // last row is on screen.
        for (count, expected) in [(3, [220.0, 340]), (1, [100, 220]), (6, [340, 0])] {
            var driver = Driver(Scene(deck: deck, viewport: viewport))
            driver.frame(atVblank: 0)
            _ = driver.scene.play(PlaybackSettings(mode: .cards(count), dwell: 1, duration: 0), now: 0)
            driver.run(until: 2.5)
            // Rows: the header 40 to 100, cards 120 to 220, 240 to 340, 360 to 460, 480 to 580.
            XCTAssertEqual([1.5, 2.5].map { driver.offset(atTarget: $0)! }, expected, "play cards \(count)")
        }
        var pages = Driver(Scene(deck: deck, viewport: viewport))
        pages.frame(atVblank: 0)
        _ = pages.scene.play(PlaybackSettings(mode: .pages, dwell: 1, duration: 0), now: 0)
        pages.run(until: 2.5)
        // At 0 the header and the first row fit (to 220), the second row (240 to 340) is cut: it
        // starts the next page (220); that page holds rows 2 and 3 whole (to 460): row 4 next (460).
        XCTAssertEqual([1.5, 2.5].map { pages.offset(atTarget: $0)! }, [220, 460])
    }

    func testPauseKeepsTheRestOfTheDwellAndResumeGoesOn() throws {
        var driver = Driver(Scene(deck: Self.deck(cards: 10), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 2, duration: 0.5), now: 0)
        driver.run(until: 1.5)
        try driver.scene.pausePlayback(now: 1.5)
        XCTAssertNil(driver.scene.nextPlaybackChange, "a paused page has no timer")
        XCTAssertThrowsError(try driver.scene.pausePlayback(now: 1.5))
        driver.run(until: 10)
        XCTAssertEqual(driver.frames.count, 1, "nothing moves while paused")
        try driver.scene.resumePlayback(now: 10)
        XCTAssertEqual(driver.scene.nextPlaybackChange!, 10.5, accuracy: 1e-9, "half a second of the dwell was left")
        XCTAssertThrowsError(try driver.scene.resumePlayback(now: 10)) { error in
            XCTAssertEqual((error as? PlaybackError)?.message, "playback is not paused")
        }
        driver.run(until: 11.1)
        XCTAssertEqual(driver.offset(atTarget: 11.1)!, 380)

        // Paused mid-move: the move ends on its page, and nothing moves after it.
        driver.run(until: 13.2)  // the next move runs from 13.0 to 13.5
        try driver.scene.pausePlayback(now: driver.now)
        driver.run(until: 30)
        XCTAssertEqual(driver.frames.last!.offset, 860, "the move reached its page")
        XCTAssertLessThan(driver.frames.last!.target, 13.6, "and nothing after it")
        XCTAssertTrue(driver.scene.stopPlayback())
        XCTAssertFalse(driver.scene.stopPlayback(), "nothing plays any more")
        driver.run(until: 32)
        XCTAssertEqual(
            driver.frames.last!.offset, 780, "stopped on the last page, past the deck's end (780): back to the end")
        XCTAssertThrowsError(try driver.scene.resumePlayback(now: 30))
    }

    func testAnEditDuringADwellIsTakenIntoTheNextPage() throws {
        var driver = Driver(Scene(deck: Self.deck(cards: 10), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 2, duration: 0.5), now: 0)
        driver.run(until: 1)
        // A card 300 px high at the top: it (40 to 340) and c0 (360 to 460) fit, c1, now third (480
        // to 580), is cut: the next page starts with it, at 460.
        try driver.scene.perform(.insert(.index(0), Card(id: "tall", title: "Tall", height: 300)), tag: nil)
        driver.run(until: 3)
        XCTAssertEqual(driver.offset(atTarget: 3)!, 460)
        XCTAssertEqual(driver.scene.deck.sections[0].cards[2].id, "c1")
    }

    /// The ticker's offset on every frame is speed × (target − first target), modulo the deck's
    /// length, across many seams, at 60 and 75 Hz, with vblanks missed at random.
    func testTickerOffsetFollowsTargetTimeExactlyAcrossTheSeam() {
        for refresh in [60.0, 75.0] {
            for missing in [false, true] {
                var random = SplitMix64(seed: 18)
                var driver = Driver(Scene(deck: Self.deck(cards: 5), viewport: Self.viewport), refresh: refresh)
                driver.frame(atVblank: 0)
                _ = driver.scene.play(PlaybackSettings(mode: .ticker, speed: 80), now: 0)
                let period = 600.0  // 5 rows of 120 px
                XCTAssertEqual(driver.scene.loopPeriod, period)
                var vblank = 1
                var start: Double?
                var seams = 0
                var previous = 0.0
                while Double(vblank) / refresh < 40 {
                    driver.frame(atVblank: vblank)
                    let (target, offset) = driver.frames.last!
                    let begin = start ?? target
                    start = begin
                    let expected = (80 * (target - begin)).truncatingRemainder(dividingBy: period)
                    var difference = (offset - expected).truncatingRemainder(dividingBy: period)
                    if difference < 0 { difference += period }
                    XCTAssertLessThan(
                        min(difference, period - difference), 1e-6,
                        "\(refresh) Hz, missing \(missing): frame at \(target) drew \(offset), expected \(expected) mod \(period)"
                    )
                    XCTAssertLessThan(offset, 600 + 40, "the offset is brought back by whole periods")
                    if offset < previous { seams += 1 }
                    previous = offset
                    vblank += missing ? Int(random.next() % 4) + 1 : 1
                }
                XCTAssertGreaterThanOrEqual(seams, 4, "the run crossed the loop's seam")
                XCTAssertTrue(driver.scene.needsFrame, "a ticker needs every frame")
                XCTAssertFalse(driver.scene.needsFrameBesidesTicker, "but holds no `wait idle`")
            }
        }
    }

    func testTickerPausesWhereItIsAndResumesFromThere() throws {
        var driver = Driver(Scene(deck: Self.deck(cards: 5), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .ticker, speed: 60), now: 0)
        driver.run(until: 2)
        let stopped = driver.frames.last!
        try driver.scene.pausePlayback(now: driver.now)
        XCTAssertFalse(driver.scene.needsFrame)
        driver.run(until: 10)
        XCTAssertEqual(driver.frames.last!.target, stopped.target, "no frame while paused")
        try driver.scene.resumePlayback(now: 10)
        driver.run(until: 11)
        let first = driver.frames.first { $0.target > 10 }!
        XCTAssertEqual(
            first.offset, stopped.offset, accuracy: 1e-9, "the first frame after resume draws where it stopped")
        let last = driver.frames.last!
        XCTAssertEqual(last.offset - first.offset, 60 * (last.target - first.target), accuracy: 1e-6)
    }

    /// wrap=loop: at an offset in the seam, the deck's first cards follow its last, one spacing
    /// apart, exactly as in a deck holding the same cards twice.
    func testLoopDrawsTheFirstCardsAfterTheLastWithNoGapOrRepeat() {
        var driver = Driver(Scene(deck: Self.deck(cards: 5), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 1, duration: 0, wrap: .loop), now: 0)
        driver.run(until: 5.5)
        // The first page starts with card 3 (380); the next with the second copy's card 2 (880,
        // so 860, brought back by the 600 px period to 260), then its card 1 (740: 140), then its
        // card 0 (620: 20, the first card one spacing below the top, as at the start).
        let rests = [1.5, 2.5, 3.5, 4.5].map { driver.offset(atTarget: $0)! }
        XCTAssertEqual(rests, [380, 260, 140, 20], "each page starting with a whole card, in the deck's copies")

        var doubled = Self.deck(cards: 5)
        for card in Array(doubled.sections[0].cards) {
            var copy = card
            copy.id += "-again"
            doubled.sections[0].cards.append(copy)
        }
        var reference = Scene(deck: doubled, viewport: Self.viewport)
        _ = reference.scroll(to: .offset(380), duration: 0, curve: .linear, tag: 1)
        var referenceList = DisplayList()
        _ = reference.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0), into: &referenceList)

        var looping = Driver(Scene(deck: Self.deck(cards: 5), viewport: Self.viewport))
        looping.frame(atVblank: 0)
        _ = looping.scene.play(PlaybackSettings(mode: .pages, dwell: 1, duration: 0, wrap: .loop), now: 0)
        looping.run(until: 1.5)
        XCTAssertEqual(looping.list.offset, 380)
        func titlesAndFrames(_ list: DisplayList) -> [String] {
            list.items.map { item in
                guard case .card(let card, _, _, _) = item.content else { return "header" }
                return "\(card.title) \(item.frame)"
            }
        }
        XCTAssertEqual(titlesAndFrames(looping.list), titlesAndFrames(referenceList))
        XCTAssertEqual(
            looping.list.items.compactMap { item -> String? in
                if case .card(let card, _, _, _) = item.content { return card.id }
                return nil
            }, ["c3", "c4", "c0", "c1"], "card 4, then cards 0 and 1 again right after it")
        let tops = looping.list.items.map(\.frame.y)
        XCTAssertEqual(zip(tops, tops.dropFirst()).map { $1 - $0 }, [120, 120, 120], "one spacing apart, no gap")
    }

    func testStoppingInTheSeamGoesToTheNearerEndAndScrollsStayInTheDeck() {
        var driver = Driver(Scene(deck: Self.deck(cards: 5), viewport: Self.viewport))
        driver.frame(atVblank: 0)
        _ = driver.scene.play(PlaybackSettings(mode: .pages, dwell: 1, duration: 0, wrap: .loop), now: 0)
        driver.run(until: 1.5)
        XCTAssertEqual(driver.list.offset, 380, "in the seam: the deck ends at 180")
        XCTAssertTrue(driver.scene.stopPlayback())
        driver.frame(atVblank: driver.vblank + 1)
        XCTAssertEqual(driver.list.offset, 180, "nearer the end (180) than the next copy's start (620)")
        XCTAssertEqual(driver.list.items.count, 4, "only the deck's own cards")
    }

    func testPlayWaitsForAScrollUnderWayAndTakesTheDecksOptions() {
        var deck = Self.deck(cards: 10)
        deck.playback = PlaybackSettings(mode: .pages, dwell: 3, duration: 1.5, curve: .linear)
        var scene = Scene(deck: deck, viewport: Self.viewport)
        _ = scene.scroll(to: .offset(100), duration: 1, curve: .linear, tag: 1)
        _ = scene.play(PlaybackSettings(mode: .cards(1), dwell: 1), now: 0)
        XCTAssertEqual(
            scene.playback?.settings,
            PlaybackSettings(mode: .cards(1), dwell: 1, duration: 1.5, curve: .linear, wrap: .rewind, speed: 80))
        XCTAssertNil(scene.nextPlaybackChange, "the dwell starts when the scroll ends")
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0), into: &list)
        _ = scene.frame(at: FrameTime(timestamp: 1, targetTimestamp: 1), into: &list)
        XCTAssertEqual(scene.nextPlaybackChange!, 2, accuracy: 1e-9)
    }

    /// A scroll whose curve overshoots far (y1 = 5.1) is still under way when a loop starts: the
    /// loop lifts the bound at the deck's end, never the one at its top.
    func testAnOvershootingScrollUnderALoopNeverGoesAboveTheTop() {
        var scene = Scene(deck: Self.deck(cards: 10), viewport: Self.viewport)
        var list = DisplayList()
        _ = scene.scroll(to: .offset(1000), duration: 0, curve: .linear, tag: 1)
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0), into: &list)
        let overshoot = TimingCurve.cubicBezier(UnitBezier(x1: 0.25, y1: 5.1, x2: 0.25, y2: 1))
        _ = scene.scroll(to: .offset(200), duration: 0.5, curve: overshoot, tag: 1)
        _ = scene.play(PlaybackSettings(mode: .cards(7), dwell: 2, duration: 4, wrap: .loop), now: 0)
        var lowest = Double.infinity
        for frame in 1...120 {
            let time = Double(frame) / 60
            _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
            lowest = min(lowest, list.offset)
        }
        XCTAssertEqual(lowest, 0, "the overshoot is held at the top, not drawn above it")
    }
}
