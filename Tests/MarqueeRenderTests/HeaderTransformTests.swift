import MarqueeCore
import MarqueeRender
import MarqueeTestSupport
import XCTest

/// Section headers are drawn with their presented attributes, as cards are: a header that
/// appears grows from its center, the header of a deleted section turns as it falls, and both
/// fade. Measured on the header's ink (the pixels that differ from the background).
final class HeaderTransformTests: XCTestCase {
    let size = PixelSize(width: 600, height: 300)
    let frame = Rect(x: 40, y: 120, width: 520, height: 48)

    func deck() -> Deck {
        var deck = Deck()
        deck.style.headerSize = 28
        deck.style.background = Color(red: 0, green: 0, blue: 0)
        deck.style.headerColor = Color(red: 0xff, green: 0xff, blue: 0xff)
        deck.sections = [Section(title: "Departures to every city", cards: [])]
        return deck
    }

    /// The header drawn alone with the given attributes, as its ink: each ink pixel's column, row
    /// and brightness (the largest channel).
    func ink(alpha: Double = 1, scale: Double = 1, rotation: Double = 0, leaving: Bool = false) throws -> [(
        x: Int, y: Int, value: UInt32
    )] {
        var list = DisplayList()
        list.background = deck().style.background
        var item = DisplayList.Item(
            content: leaving ? .leavingHeader(title: "Departures to every city", section: 0) : .header(section: 0),
            frame: frame)
        item.alpha = alpha
        item.scale = scale
        item.rotation = rotation
        list.items = [item]
        let buffer = PixelBuffer(width: size.width, height: size.height)
        try Renderer().render(list, deck: deck(), into: buffer)
        var pixels: [(x: Int, y: Int, value: UInt32)] = []
        buffer.withPixels { memory in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let pixel = memory[y * buffer.stride + x]
                    let value = max((pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF)
                    if value > 24 { pixels.append((x, y, value)) }
                }
            }
        }
        return pixels
    }

    func bounds(_ ink: [(x: Int, y: Int, value: UInt32)]) -> (x0: Int, x1: Int, y0: Int, y1: Int) {
        (ink.map(\.x).min()!, ink.map(\.x).max()! + 1, ink.map(\.y).min()!, ink.map(\.y).max()! + 1)
    }

    /// The mean row of the ink in columns `columns`.
    func meanRow(_ ink: [(x: Int, y: Int, value: UInt32)], _ columns: Range<Int>) -> Double {
        let part = ink.filter { columns.contains($0.x) }
        return Double(part.map(\.y).reduce(0, +)) / Double(part.count)
    }

    func testAnAppearingHeaderGrowsFromItsCenter() throws {
        let upright = bounds(try ink())
        let grown = bounds(try ink(scale: 0.49))
        let centerX = frame.x + frame.width / 2
        let centerY = frame.y + frame.height / 2
        // Each edge of the ink moves toward the frame's center to 0.49 of its distance.
        for (full, scaled, center) in [
            (upright.x0, grown.x0, centerX), (upright.x1, grown.x1, centerX), (upright.y0, grown.y0, centerY),
            (upright.y1, grown.y1, centerY),
        ] {
            XCTAssertEqual(
                Double(scaled), center + (Double(full) - center) * 0.49, accuracy: 3, "\(upright) → \(grown)")
        }
    }

    func testTheHeaderOfADeletedSectionTurnsAndFades() throws {
        let upright = try ink(leaving: true)
        let box = bounds(upright)
        let left = box.x0..<(box.x0 + (box.x1 - box.x0) / 4)
        let right = (box.x1 - (box.x1 - box.x0) / 4)..<box.x1
        XCTAssertEqual(meanRow(upright, left), meanRow(upright, right), accuracy: 2, "upright: level")
        // Turned clockwise by 0.12 rad, the right end is lower than the left by about
        // tan(0.12) times the distance between the two quarters' middles.
        let turned = try ink(alpha: 0.5, rotation: 0.12, leaving: true)
        let drop = meanRow(turned, right) - meanRow(turned, left)
        let distance = Double(right.lowerBound + right.upperBound - left.lowerBound - left.upperBound) / 2
        XCTAssertEqual(drop, 0.12 * distance, accuracy: 0.12 * distance * 0.2, "turned about its center")
        XCTAssertEqual(
            Double(turned.map(\.value).max()!), Double(upright.map(\.value).max()!) / 2, accuracy: 4, "half opacity")
    }
}
