import MarqueeCore
import MarqueeTestSupport
import XCTest

final class ScrollTargetTests: XCTestCase {
    // Default layout: insets 40, spacing 24, card height 160, header height 64.
    let deck = SmallDecks.deck(sectionCounts: [5, 5, 5])
    lazy var layout = CollectionLayout(deck: deck, viewport: PixelSize(width: 800, height: 600))

    func resolve(_ target: ScrollTarget) -> Result<Double, ScrollTargetError> { target.resolve(in: layout, deck: deck) }

    func testEveryTargetForm() throws {
        // Card 6 is section 1, item 1: two headers (88 each) and six cards (184 each) above it.
        let card6Top: Double = 40 + 88 + 5 * 184 + 88 + 184
        XCTAssertEqual(try resolve(.card(6)).get(), card6Top - 40)
        XCTAssertEqual(try resolve(.sectionItem(section: 1, item: 1)).get(), card6Top - 40)
        XCTAssertEqual(try resolve(.cardID("c6")).get(), card6Top - 40)
        XCTAssertEqual(try resolve(.start).get(), 0)
        XCTAssertEqual(try resolve(.end).get(), layout.maxOffset)
        XCTAssertEqual(try resolve(.percent(50)).get(), layout.maxOffset / 2)
        XCTAssertEqual(try resolve(.offset(123.5)).get(), 123.5)
    }

    func testTargetsAreClamped() throws {
        XCTAssertEqual(try resolve(.card(14)).get(), layout.maxOffset, "the last card cannot reach the top")
        XCTAssertEqual(try resolve(.offset(1e9)).get(), layout.maxOffset)
        XCTAssertEqual(try resolve(.percent(100)).get(), layout.maxOffset)
    }

    func testInvalidTargetsSayWhy() {
        XCTAssertThrowsError(try resolve(.card(15)).get()) { XCTAssertTrue("\($0)".contains("out of range")) }
        XCTAssertThrowsError(try resolve(.sectionItem(section: 3, item: 0)).get())
        XCTAssertThrowsError(try resolve(.sectionItem(section: 0, item: 5)).get())
        XCTAssertThrowsError(try resolve(.cardID("nope")).get()) { XCTAssertTrue("\($0)".contains("nope")) }
    }

    func testMaxOffset() {
        // 3 headers + 15 cards, minus the last spacing, plus both insets, minus the viewport.
        let content: Double = 40 + 3 * 88 + 15 * 184 - 24 + 40
        XCTAssertEqual(layout.contentHeight, content)
        XCTAssertEqual(layout.maxOffset, content - 600)
    }
}
