import MarqueeCore
import MarqueeTestSupport
import XCTest

/// Cards past their `expires` time: RFC 3339 times, the fade to `staleAlpha` at fixed checkpoints
/// of the link's clock, cards coming back on update, and the wake-up for the next expiry.
final class StaleCardTests: XCTestCase {
    let viewport = PixelSize(width: 500, height: 600)

    func testRFC3339Times() {
        XCTAssertEqual(Timestamp.parse("1970-01-01T00:00:00Z"), 0)
        XCTAssertEqual(Timestamp.parse("2026-11-23T18:30:00Z"), 1_795_458_600)
        XCTAssertEqual(Timestamp.parse("2026-11-23T19:30:00+01:00"), 1_795_458_600)
        XCTAssertEqual(Timestamp.parse("2026-11-23t13:30:00-05:00"), 1_795_458_600)
        XCTAssertEqual(Timestamp.parse("2026-11-23 18:30:00.25Z"), 1_795_458_600.25)
        XCTAssertEqual(Timestamp.parse("2024-02-29T00:00:00Z"), 1_709_164_800)
        XCTAssertEqual(
            Timestamp.parse("2016-12-31T23:59:60Z"), Timestamp.parse("2016-12-31T23:59:59Z"), "a leap second")
        for bad in [
            "", "2026-11-23", "2026-11-23T18:30Z", "2026-11-23T18:30:00", "2026-13-01T00:00:00Z",
            "2025-02-29T00:00:00Z", "2026-11-23T24:00:00Z", "2026-11-23T18:30:00+1:00", "2026-11-23T18:30:00.Z",
            "2026-11-23T18:30:00Zjunk", "٢٠٢٦-11-23T18:30:00Z", "+2026-11-23T18:30:00Z",
        ] {
            XCTAssertNil(Timestamp.parse(bad), bad)
        }
    }

    func testTheDecoderReadsExpiresAndStaleAlphaAndNamesBadOnes() throws {
        let deck = try DeckDecoder.decode(
            #"{"style": {"staleAlpha": 0.3}, "sections": [{"cards": [{"id": "a", "expires": "2026-11-23T18:30:00Z"}]}]}"#
        )
        XCTAssertEqual(deck.sections[0].cards[0].expires, 1_795_458_600)
        XCTAssertEqual(deck.style.staleAlpha, 0.3)
        XCTAssertEqual(Deck().style.staleAlpha, 0.45)
        XCTAssertThrowsError(
            try DeckDecoder.decode(#"{"sections": [{"cards": [{"id": "a", "expires": "tomorrow"}]}]}"#)
        ) { error in
            XCTAssertTrue("\(error)".contains("sections[0].cards[0].expires"), "\(error)")
            XCTAssertTrue("\(error)".contains("RFC 3339"), "\(error)")
        }
        XCTAssertThrowsError(try DeckDecoder.decode(#"{"style": {"staleAlpha": 2}}"#))
    }

    /// The link's clock runs 1,000 s behind the wall clock here: a card that expires at wall
    /// second 1,002 goes stale at link time 2.
    func scene(_ cards: [Card]) -> Scene {
        var deck = Deck()
        deck.sections = [Section(cards: cards)]
        var scene = Scene(deck: deck, viewport: viewport)
        scene.clockOffset = 1000
        return scene
    }

    func alpha(_ scene: inout Scene, at time: Double, of id: String) -> Double? {
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
        return list.items.first { if case .card(let card, _, _, _) = $0.content { card.id == id } else { false } }?
            .alpha
    }

    func testACardFadesFromItsExpiryOverTheTransitionAndStays() throws {
        var scene = scene([Card(id: "a", expires: 1002), Card(id: "b")])
        let duration = scene.transitionDuration
        XCTAssertEqual(alpha(&scene, at: 1.5, of: "a"), 1)
        XCTAssertEqual(scene.nextStaleChange, 2, "the next frame it needs is the expiry's")
        XCTAssertEqual(alpha(&scene, at: 2, of: "a"), 1, "the fade starts at the expiry")
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 2 + duration / 2, of: "a")), 1 - 0.55 / 2, accuracy: 1e-9)
        XCTAssertEqual(scene.nextStaleChange, 2 + duration / 2, "fading: another frame")
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 2 + duration, of: "a")), 0.45, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 60, of: "a")), 0.45, accuracy: 1e-9)
        XCTAssertNil(scene.nextStaleChange, "nothing more to wake for")
        XCTAssertEqual(alpha(&scene, at: 60, of: "b"), 1, "a card without expires never goes stale")

        // An update brings it back, even with the same past expiry: the feed vouched for it.
        try scene.updateCard(.id("a"), with: CardPatch(body: "Checked again"))
        XCTAssertEqual(alpha(&scene, at: 61, of: "a"), 1)
        XCTAssertEqual(alpha(&scene, at: 62, of: "a"), 1)
        // A new expiry later on takes over.
        try scene.updateCard(.id("a"), with: CardPatch(expires: 1070))
        XCTAssertEqual(alpha(&scene, at: 63, of: "a"), 1)
        XCTAssertEqual(scene.nextStaleChange, 70)
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 71, of: "a")), 0.45, accuracy: 1e-9)
    }

    func testACardAlreadyExpiredIsDrawnStaleAtOnceAndAWallClockJumpMovesExpiries() throws {
        var scene = scene([Card(id: "old", expires: 500), Card(id: "later", expires: 4000)])
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 1, of: "old")), 0.45, accuracy: 1e-9)
        XCTAssertEqual(alpha(&scene, at: 1, of: "later"), 1)
        XCTAssertEqual(scene.nextStaleChange, 3000)
        // NTP sets the clock an hour on: "later" (wall 4,000) is now past.
        scene.clockOffset += 3600
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 2, of: "later")), 0.45, accuracy: 1e-9)
    }

    func testADeletedCardsRefreshIsForgotten() throws {
        var scene = scene([Card(id: "a", expires: 500)])
        _ = alpha(&scene, at: 1, of: "a")
        try scene.updateCard(.id("a"), with: CardPatch(title: "fresh"))
        XCTAssertEqual(alpha(&scene, at: 2, of: "a"), 1)
        try scene.deleteCard(.id("a"))
        try scene.insertCard(Card(id: "a", expires: 500), at: .index(0))
        _ = alpha(&scene, at: 30, of: "a")  // the insert's first frame: it starts growing
        XCTAssertEqual(try XCTUnwrap(alpha(&scene, at: 31, of: "a")), 0.45, accuracy: 1e-9)
    }
}
