import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The render caches compare text by its bytes: Swift's `String` equality would hash every
/// non-ASCII text through NFC normalization (cards-1080p-world's slow frames), and would also
/// serve text in NFD from the layer drawn for the same text in NFC.
final class ExactTextKeyTests: XCTestCase {
    let composed = "Caf\u{E9} \u{645}\u{631}\u{62D}\u{628}\u{627}"
    let decomposed = "Cafe\u{301} \u{645}\u{631}\u{62D}\u{628}\u{627}"

    func testCanonicallyEqualTextsInOtherBytesAreDifferentKeys() {
        XCTAssertEqual(composed, decomposed, "String equality is canonical")
        let first = CardRasterCache.Key(card: Card(id: "a", title: composed), width: 100, height: 50)
        let second = CardRasterCache.Key(card: Card(id: "a", title: decomposed), width: 100, height: 50)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(Set([first, second]).count, 2)
        let layoutFirst = LayoutCache.Key(
            text: composed, width: 100, lines: 1, moreFollows: false, direction: .auto, marksTruncation: true)
        var layoutSecond = layoutFirst
        layoutSecond.text = decomposed
        XCTAssertNotEqual(layoutFirst, layoutSecond)
    }

    func testEqualKeysHashAlikeAndEveryFieldCounts() {
        let card = Card(id: "a", title: composed, body: "b\n\u{5E9}\u{5E2}\u{5E8} 3", color: Color(hex: "#ffffff"))
        let key = CardRasterCache.Key(card: card, width: 100, height: 50)
        // The same bytes in storage of their own (not the same string object).
        let copy = CardRasterCache.Key(
            card: Card(
                id: String(decoding: Array("a".utf8), as: UTF8.self),
                title: String(decoding: Array(composed.utf8), as: UTF8.self),
                body: String(decoding: Array(card.body.utf8), as: UTF8.self), color: Color(hex: "#ffffff")),
            width: 100, height: 50)
        XCTAssertEqual(key, copy)
        XCTAssertEqual(key.hashValue, copy.hashValue)
        var recolored = copy
        recolored.card.color = Color(hex: "#000000")
        XCTAssertNotEqual(key, recolored, "fields other than text still count")
        var resized = copy
        resized.width = 101
        XCTAssertNotEqual(key, resized)
        var otherBody = copy
        otherBody.card.body = "b"
        XCTAssertNotEqual(key, otherBody)
    }
}
