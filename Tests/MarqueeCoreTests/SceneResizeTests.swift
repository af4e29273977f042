import XCTest

@testable import MarqueeCore

/// A display of another size plugged in: the deck is laid out for it as a `load` would.
final class SceneResizeTests: XCTestCase {
    func testTheLayoutFollowsTheNewSizeAndTheOffsetIsKeptWhereItFits() {
        var scene = Scene(deck: DemoDeck.make(), viewport: PixelSize(width: 1280, height: 720))
        var list = DisplayList()
        _ = scene.scroll(to: .end, duration: 0, curve: .easeInOut, tag: 1)
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60), into: &list)
        let endAt720 = scene.presentedOffset
        XCTAssertEqual(endAt720, scene.layout.maxOffset)

        XCTAssertNil(scene.resize(screen: PixelSize(width: 1280, height: 720)), "the same size changes nothing")
        XCTAssertEqual(scene.presentedOffset, endAt720)

        _ = scene.resize(screen: PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(scene.screenSize, PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(scene.viewport, PixelSize(width: 1920, height: 1080))
        let loaded = CollectionLayout(deck: scene.deck, viewport: PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(scene.layout.contentHeight, loaded.contentHeight, "laid out as a deck loaded at that size")
        XCTAssertEqual(scene.layout.maxOffset, loaded.maxOffset)
        XCTAssertNotEqual(loaded.maxOffset, endAt720, "the new size moves the end")
        XCTAssertLessThanOrEqual(scene.presentedOffset, scene.layout.maxOffset, "clamped to the new range")
        XCTAssertTrue(scene.hasUnpresentedChange, "the next frame draws the new layout")
    }
}
