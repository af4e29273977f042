import MarqueeCore
import MarqueeRender
import XCTest

/// A text element's line reaches below a box shorter than the text (its baseline is 0.8 of the
/// size below the box's top): frames drawn into one buffer, each redrawing only the rows that
/// changed, must equal frames drawn whole, or a scrolling marquee leaves its old descenders.
final class ElementReachTests: XCTestCase {
    func testAMarqueeInAShortBoxLeavesNothingBehind() throws {
        let long = String(repeating: "gjpqy Qgjy ", count: 12)
        let deck = try DeckDecoder.decode(
            """
            { "layout": { "type": "list", "cardHeight": 120 },
              "style": { "background": "#121a2b", "cardColor": "#f2f4f8", "textColor": "#1a1a1f" },
              "templates": { "t": { "height": 120, "elements": [
                { "text": "m", "left": 40, "top": 10, "right": 40, "height": 4, "size": 40,
                  "overflow": "marquee", "speed": 80, "pause": 0.2 } ] } },
              "sections": [ { "cards": [ { "id": "a", "template": "t", "fields": { "m": "\(long)" } } ] } ] }
            """)
        let size = PixelSize(width: 640, height: 360)
        var scene = Scene(deck: deck, viewport: size)
        var list = DisplayList()
        let renderer = try Renderer()
        let kept = PixelBuffer(width: size.width, height: size.height)
        for k in 0..<6 {
            let time = Double(k) / 4
            _ = scene.frame(at: FrameTime(timestamp: time - 1.0 / 60, targetTimestamp: time), into: &list)
            try renderer.render(list, deck: deck, into: kept)
            let whole = PixelBuffer(width: size.width, height: size.height)
            try Renderer().render(list, deck: deck, into: whole)
            let same = kept.withPixels { a in whole.withPixels { b in Array(a) == Array(b) } }
            XCTAssertTrue(same, "frame at \(time) s differs from the frame drawn whole")
        }
    }
}
