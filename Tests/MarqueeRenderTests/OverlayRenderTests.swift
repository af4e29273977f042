import Glibc
import MarqueeCore
import MarqueeTestSupport
import XCTest

@testable import MarqueeRender

/// Overlay bands and the alert drawn: a golden picture of a board with a top band (a clock and a
/// title) and a bottom band over scrolled content, and an alert over it (tolerance:
/// `ImageComparison`, 4 levels a channel on at most 0.2 % of the pixels; a mismatch writes
/// `Goldens/NAME_err.png`); a band's clock redraws only its own rows, once a minute (or second).
final class OverlayRenderTests: XCTestCase {
    static let size = PixelSize(width: 480, height: 320)

    override func setUp() {
        // Clock elements show local time; the goldens are drawn in UTC.
        setenv("TZ", "UTC", 1)
        tzset()
    }

    /// `scrollingNote`: the bottom band's note is a marquee (too long for the band, scrolling).
    static func deck(clock: String = "%H:%M", scrollingNote: Bool = false) throws -> Deck {
        let note =
            scrollingNote
            ? "\"overflow\": \"marquee\", \"speed\": 60, \"pause\": 0.5," : ""
        let noteText =
            scrollingNote
            ? "Platform 4 is closed today; trains to the coast leave from platform 6 until further notice"
            : "Platform 4 is closed today"
        let cards = (0..<12).map { "{\"id\": \"c\($0)\", \"title\": \"Card \($0)\", \"body\": \"Under the bands\"}" }
            .joined(separator: ",")
        return try DeckDecoder.decode(
            """
            {"layout": {"insets": 10, "spacing": 8, "cardHeight": 70},
             "style": {"background": "#203048", "cornerRadius": 10, "bodySize": 14, "titleSize": 20, "padding": 10,
                       "cardColor": "#f4f1ea", "transitionDuration": 0.4},
             "templates": {
               "bar": {"elements": [
                 {"box": "#0d1a2b", "left": 0, "right": 0, "top": 0, "bottom": 0},
                 {"text": "title", "left": 16, "top": 14, "right": 140, "size": 26, "weight": "bold", "color": "#ffffff"},
                 {"clock": "\(clock)", "right": 16, "top": 14, "width": 120, "size": 26, "align": "end", "color": "#ffd54f"}
               ]},
               "strip": {"elements": [
                 {"box": "#8b1e1e", "left": 0, "right": 0, "top": 0, "bottom": 0},
                 {"text": "note", "left": 16, "right": 16, "top": 6, "size": 16, \(note) "color": "#ffffff"}
               ]},
               "warning": {"height": 100, "elements": [
                 {"box": "#c62828", "left": 0, "right": 0, "top": 0, "bottom": 0, "radius": 12},
                 {"text": "message", "left": 20, "right": 20, "top": 30, "size": 30, "weight": "bold", "align": "center", "color": "#ffffff"}
               ]}
             },
             "overlays": [
               {"edge": "top", "height": 60, "template": "bar", "fields": {"title": "Departures"}},
               {"edge": "bottom", "height": 32, "template": "strip", "fields": {"note": "\(noteText)"}}
             ],
             "sections": [{"cards": [\(cards)]}]}
            """)
    }

    func testABoardWithBandsOverScrolledContent() throws {
        let deck = try Self.deck()
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        _ = scene.scroll(to: .offset(50), duration: 0, curve: .linear, tag: 1)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try TemplateRenderTests.render(deck, time: 10, renderer: renderer, into: buffer, scene: &scene)
        try GoldenImageTests.assertGolden(buffer, "overlays")
        // The alert over everything, once faded in.
        scene.showAlert(
            Card(id: "alert", template: "warning", fields: ["message": "Fire drill at 11:00"]),
            template: deck.templates["warning"]!)
        _ = try TemplateRenderTests.render(deck, time: 11, renderer: renderer, into: buffer, scene: &scene)
        _ = try TemplateRenderTests.render(deck, time: 11.2, renderer: renderer, into: buffer, scene: &scene)
        _ = try TemplateRenderTests.render(deck, time: 11.5, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertFalse(scene.needsFrame)
        try GoldenImageTests.assertGolden(buffer, "overlays_alert")
    }

    /// The rows a band's clock costs: at time 10 the clock reads 12:34:56 (TemplateRenderTests).
    func assertClockCostsOnlyItsRows(_ format: String, nextChange: Double) throws {
        let deck = try Self.deck(clock: format)
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        _ = try TemplateRenderTests.render(deck, time: 10, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertFalse(scene.needsFrame)
        XCTAssertEqual(try XCTUnwrap(renderer.nextRedraw), nextChange, accuracy: 1e-6)
        let before = nextChange - 0.05
        XCTAssertTrue(
            try TemplateRenderTests.render(deck, time: before, renderer: renderer, into: buffer, scene: &scene).isEmpty,
            "nothing is redrawn before the clock changes")
        let changed = try TemplateRenderTests.render(
            deck, time: nextChange, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertFalse(changed.isEmpty)
        // The clock's line (top 14, 26 px text) within the 60 px band, with the damage's reach.
        XCTAssertGreaterThanOrEqual(changed.covering.lowerBound, 0)
        XCTAssertLessThanOrEqual(changed.covering.upperBound, 60, "only the band's rows: \(changed)")
        // The band redrawn in part equals the whole frame drawn afresh.
        let whole = PixelBuffer(width: Self.size.width, height: Self.size.height)
        var fresh = Scene(deck: deck, viewport: Self.size)
        _ = try TemplateRenderTests.render(deck, time: nextChange, renderer: try Renderer(), into: whole, scene: &fresh)
        XCTAssertTrue(TemplateRenderTests.same(buffer, whole))
    }

    func testABandClockShowingMinutesRedrawsItsRowsOnceAMinute() throws {
        // 12:34:56 at time 10: "%H:%M" changes at 12:35:00.
        try assertClockCostsOnlyItsRows("%H:%M", nextChange: 14)
    }

    func testABandClockShowingSecondsRedrawsItsRowsOnceASecond() throws {
        try assertClockCostsOnlyItsRows("%H:%M:%S", nextChange: 11)
    }

    /// A clock in the top band and a marquee in the bottom one, changing in the same frame: the
    /// renderer reports two bands, each within its own band of the screen and its element's reach
    /// (the note's text may reach half its size above its box, 2 rows above its band), not the
    /// rows between (what a display sends to an SPI panel), and the frame drawn so equals the
    /// frame drawn whole.
    func testAClockAtTheTopAndAMarqueeAtTheBottomAreTwoBands() throws {
        let deck = try Self.deck(clock: "%H:%M:%S", scrollingNote: true)
        let renderer = try Renderer()
        var scene = Scene(deck: deck, viewport: Self.size)
        let buffer = PixelBuffer(width: Self.size.width, height: Self.size.height)
        // At 10.5 s the note is moving (its 0.5 s pause from time 0 is over); at 11 s it has moved
        // on and the clock turned from 12:34:56 to 12:34:57.
        _ = try TemplateRenderTests.render(deck, time: 10.5, renderer: renderer, into: buffer, scene: &scene)
        let changed = try TemplateRenderTests.render(deck, time: 11, renderer: renderer, into: buffer, scene: &scene)
        XCTAssertEqual(changed.count, 2, "\(changed)")
        guard changed.count == 2 else { return }
        XCTAssertGreaterThanOrEqual(changed[0].lowerBound, 0)
        XCTAssertLessThanOrEqual(changed[0].upperBound, 60, "the clock's rows, in the top band: \(changed)")
        XCTAssertGreaterThanOrEqual(
            changed[1].lowerBound, Self.size.height - 32 - 2, "the note's, in the bottom band and its reach")
        XCTAssertLessThanOrEqual(changed[1].upperBound, Self.size.height)
        let whole = PixelBuffer(width: Self.size.width, height: Self.size.height)
        var fresh = Scene(deck: deck, viewport: Self.size)
        _ = try TemplateRenderTests.render(deck, time: 11, renderer: try Renderer(), into: whole, scene: &fresh)
        XCTAssertTrue(TemplateRenderTests.same(buffer, whole))
    }
}
