import MarqueeCore
import XCTest

final class BindingsTests: XCTestCase {
    let deckJSON = """
        {"layout": {"insets": 0, "spacing": 0, "cardHeight": 100, "headerHeight": 0},
         "keyframes": {
           "background": {"space": "hsb", "keyframes": [{"at": 0, "hue": 0, "saturation": 1, "brightness": 1},
                                                         {"at": 1, "hue": 0.18, "saturation": 1, "brightness": 1}]},
           "cards": {"input": "position",
                     "opacity": [{"at": 0, "value": 0}, {"at": 0.5, "value": 1}],
                     "scale": [{"at": 0, "value": 0.5}, {"at": 0.5, "value": 1}],
                     "rotation": [{"at": 0, "value": 0.2}, {"at": 0.5, "value": 0}],
                     "translateX": [{"at": 0, "value": 40}, {"at": 0.5, "value": 0}],
                     "tint": {"keyframes": [{"at": 0, "color": "#ff000080"}, {"at": 1, "color": "#ff000080"}]}}},
         "sections": [{"cards": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}, {"id": "f"}]}]}
        """

    func testCardAttributesFollowTheirPositionInTheViewport() throws {
        let deck = try DeckDecoder.decode(deckJSON)
        var scene = Scene(deck: deck, viewport: PixelSize(width: 400, height: 400))
        var list = DisplayList()
        _ = scene.frame(at: FrameTime(timestamp: 0, targetTimestamp: 0.1), into: &list)
        XCTAssertEqual(list.background.hexString, "#ff0000", "percent 0")
        // Cards are 100 tall from y = 0: centers at 50, 150, 250, 350 of 400 → positions 1/8, 3/8, 5/8, 7/8.
        XCTAssertEqual(list.items.count, 4)
        let first = list.items[0]
        XCTAssertEqual(first.alpha, 0.25, accuracy: 1e-12)
        XCTAssertEqual(first.scale, 0.625, accuracy: 1e-12)
        XCTAssertEqual(first.rotation, 0.15, accuracy: 1e-12)
        XCTAssertEqual(first.frame.x, 30, accuracy: 1e-12)
        XCTAssertEqual(first.tint, Color(red: 255, green: 0, blue: 0, alpha: 128))
        XCTAssertEqual(list.items[1].alpha, 0.75, accuracy: 1e-12)
        XCTAssertEqual(list.items[2].alpha, 1, "past the last keyframe the end value holds")
        XCTAssertEqual(list.items[3].scale, 1)
        XCTAssertEqual(list.items[3].frame.x, 0)
        _ = scene.scroll(to: .end, duration: 0, curve: .linear, tag: 1)
        _ = scene.frame(at: FrameTime(timestamp: 0.1, targetTimestamp: 0.2), into: &list)
        XCTAssertEqual(list.percent, 1)
        XCTAssertEqual(list.background, Color(hue: 0.18, saturation: 1, brightness: 1))
    }

    func testKeyframeProblemsHavePaths() {
        let text = """
            {"sections": [], "keyframes": {
              "background": {"space": "cmyk", "keyframes": []},
              "cards": {"input": "time", "opacity": [{"at": 0, "value": 2}], "scale": [{"at": 0.5, "value": 1}, {"at": 0.2, "value": 2}],
                        "rotation": [{"value": 1}], "tint": {"keyframes": [{"at": 0, "hue": 0.5}]}, "blur": []}}}
            """
        XCTAssertThrowsError(try DeckDecoder.decode(text)) { error in
            let lines = (error as! DeckError).problems.map(\.description)
            for expected in [
                "keyframes.background.space: unknown color space \"cmyk\"",
                "keyframes.background.keyframes: expected a non-empty array",
                "keyframes.cards.blur: unknown field",
                "keyframes.cards.input: unknown input \"time\"",
                "keyframes.cards.opacity[0].value: 2 is out of range (0...1)",
                "keyframes.cards.scale[1].at: keyframes must be in ascending order",
                "keyframes.cards.rotation[0].at: missing",
                "keyframes.cards.tint.keyframes[0]: missing \"color\"",
            ] {
                XCTAssertTrue(lines.contains { $0.hasPrefix(expected) }, "\(expected) not in \(lines)")
            }
        }
    }
}
