import MarqueeCore
import XCTest

/// A deck's own `playback` (docs/deck-format.md, "playback").
final class PlaybackDecoderTests: XCTestCase {
    func deck(_ playback: String) throws -> Deck {
        try DeckDecoder.decode(#"{"sections": [], "playback": "# + playback + "}")
    }

    func problems(_ playback: String) -> [String] {
        do {
            _ = try deck(playback)
            return []
        } catch {
            return (error as? DeckError)?.problems.map(\.description) ?? ["\(error)"]
        }
    }

    func testEveryModeWithItsOptions() throws {
        XCTAssertEqual(
            try deck(#"{"mode": "pages", "dwell": 10, "duration": 1.2, "curve": "linear", "wrap": "loop"}"#).playback,
            PlaybackSettings(mode: .pages, dwell: 10, duration: 1.2, curve: .linear, wrap: .loop))
        XCTAssertEqual(
            try deck(#"{"mode": "cards", "cards": 3, "dwell": 0}"#).playback,
            PlaybackSettings(mode: .cards(3), dwell: 0))
        XCTAssertEqual(
            try deck(#"{"mode": "ticker", "speed": 45.5}"#).playback, PlaybackSettings(mode: .ticker, speed: 45.5))
        XCTAssertEqual(try deck(#"{"mode": "ticker"}"#).playback, PlaybackSettings(mode: .ticker))
        XCTAssertNil(try DeckDecoder.decode(#"{"sections": []}"#).playback)
    }

    func testEveryMistakeIsNamedByItsPath() {
        XCTAssertEqual(problems(#"{"dwell": 3}"#), [#"playback.mode: missing ("pages", "cards" or "ticker")"#])
        XCTAssertEqual(
            problems(#"{"mode": "slides"}"#),
            [#"playback.mode: unknown mode "slides" (use "pages", "cards" or "ticker")"#])
        XCTAssertEqual(
            problems(#"{"mode": "cards"}"#),
            [#"playback.cards: missing ("mode": "cards" moves this many cards at a time)"#])
        XCTAssertEqual(
            problems(#"{"mode": "cards", "cards": 0}"#),
            ["playback.cards: 0 is not a whole number of cards from 1 to 1000000000"])
        XCTAssertEqual(
            problems(#"{"mode": "cards", "cards": 2.5}"#),
            ["playback.cards: 2.5 is not a whole number of cards from 1 to 1000000000"])
        XCTAssertEqual(
            problems(#"{"mode": "pages", "dwell": -1, "duration": 1e9}"#),
            [
                "playback.dwell: -1 is not a number of seconds from 0 to 86400",
                "playback.duration: 1000000000 is not a number of seconds from 0 to 86400",
            ])
        XCTAssertEqual(
            problems(#"{"mode": "pages", "dwell": "8s"}"#),
            ["playback.dwell: expected a number of seconds, found a string"])
        XCTAssertEqual(
            problems(#"{"mode": "pages", "wrap": "bounce"}"#),
            [#"playback.wrap: "bounce" is not one of "rewind", "loop""#])
        XCTAssertEqual(problems(#"{"mode": "pages", "curve": "wobbly"}"#).count, 1)
        XCTAssertEqual(
            problems(#"{"mode": "pages", "curve": "cubic-bezier(0,1001,1,1)"}"#),
            [
                #"playback.curve: unknown curve "cubic-bezier(0,1001,1,1)" (use linear, ease-in, ease-out, ease-in-out or cubic-bezier(x1,y1,x2,y2) with x1, x2 in [0, 1] and y1, y2 in [-100, 100])"#
            ])
        XCTAssertEqual(
            problems(#"{"mode": "pages", "speed": 80}"#), [#"playback.speed: only "mode": "ticker" takes a speed"#])
        XCTAssertEqual(
            problems(#"{"mode": "ticker", "dwell": 3}"#),
            [#"playback.dwell: a ticker takes only "speed" (it never rests and always loops)"#])
        XCTAssertEqual(
            problems(#"{"mode": "ticker", "speed": 0}"#),
            ["playback.speed: 0 is not a speed in px/s above 0 and at most 100000"])
        XCTAssertEqual(
            problems(#"{"mode": "pages", "cards": 2}"#),
            [#"playback.cards: only "mode": "cards" takes a number of cards"#])
        XCTAssertTrue(problems(#"{"mode": "pages", "dwel": 2}"#).first!.hasPrefix("playback.dwel: unknown field"))
        XCTAssertEqual(problems(#""pages""#), ["playback: expected an object, found a string"])
    }
}
