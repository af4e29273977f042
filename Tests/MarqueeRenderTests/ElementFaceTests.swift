import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// A template element whose font cannot be opened (the deck is refused before it is shown, but
/// fontconfig's fonts may change under a running kiosk) still keeps its size and weight: it is
/// drawn in the body font's family at its own size, not as the body text.
final class ElementFaceTests: XCTestCase {
    func testAnElementFontThatCannotBeOpenedKeepsTheElementsSize() throws {
        let fonts = try defaultStyleFonts()
        let face = fonts.elementFace(family: "NoSuchFontMarquee", weight: 400, size: 40)
        XCTAssertEqual(face.pixelSize, 40, "the element's size, not the body's \(fonts.body.pixelSize)")
        let installed = fonts.elementFace(family: nil, weight: 400, size: 40)
        XCTAssertEqual(face.path, installed.path, "the body font's family")
    }
}
