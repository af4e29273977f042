import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The open fill (a card's fill beside its text, as one rectangle of blocks) and the compositor's
/// crossing of it, blended as one run a row: the rectangle holds only blocks of the fill, each
/// row's crossing holds exactly the pixels whose samples fall in it, and cards drawn that way
/// match pixman.
final class TurnedCardOpenFillTests: XCTestCase {
    /// A card-like raster: a fill with transparent corners and a block of "text" at its left;
    /// the rectangle is the fill right of the text, over every row whose blocks are fill there.
    func testOpenFillIsTheFillBesideTheText() throws {
        let width = 200
        let height = 40
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        let row = raster.stride / 4
        let fill: UInt32 = 0xEBEB_EBEB
        for y in 0..<height {
            for x in 0..<width {
                let corner = (x < 4 || x >= width - 4) && (y < 4 || y >= height - 4)
                let text = x >= 6 && x < 70 && y >= 8 && y < 30
                pixels[y * row + x] = corner ? 0 : text ? 0xFF20_2020 : fill
            }
        }
        // A spot in the right part's top row: the rectangle starts below it.
        pixels[0 * row + 150] = 0x8000_0000
        let runs = UniformBlockRuns(width: width, height: height)
        _ = try XCTUnwrap(runs.lengths(of: raster))
        // Text texels reach column 69 (blocks 68 and 69); the right corners' texels start at
        // column 196 (blocks from 195 on rows within 4 of the top and bottom); the last row
        // starts no block; the spot ends row 0's blocks at columns 149 and 150. The rectangle
        // over every row (125 x 38 blocks) beats the one that reaches the right edge between
        // the corners (129 x 32).
        XCTAssertEqual(runs.openFill, .init(left: 70, top: 1, right: 195, bottom: 39))
        // Beside it, the largest of what the rows keep left of it: below the text, from the
        // left corners' column 4 (rows 35 on reach the bottom corners) to the first's column 70.
        XCTAssertEqual(runs.otherOpenFill, .init(left: 4, top: 30, right: 70, bottom: 39))
        let map = try XCTUnwrap(runs.maps(of: raster))
        XCTAssertEqual(map.openFill, runs.openFill)
        XCTAssertEqual(map.otherOpenFill, runs.otherOpenFill)
        XCTAssertEqual(map.commonColor, fill)
        withExtendedLifetime(runs) {}
    }

    /// No rectangle where the fill has none worth a row's divisions (a raster of noise).
    func testNoOpenFillInNoise() throws {
        var random = SplitMix64(seed: 5)
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 64, height: 16)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(raster.stride / 4 * 16) { pixels[index] = random.next() % 3 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
        let runs = UniformBlockRuns(width: 64, height: 16)
        _ = try XCTUnwrap(runs.lengths(of: raster))
        XCTAssertNil(runs.openFill)
        XCTAssertNil(runs.otherOpenFill)
        withExtendedLifetime(runs) {}
    }

    /// A row's crossing against the walk itself, step by step: exactly the steps whose sample's
    /// block is inside, for steps of every sign and size, starts inside and out.
    func testCrossingsHoldExactlyTheStepsInside() {
        var random = SplitMix64(seed: 31)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func signed(_ bound: Int) -> Int32 { Int32(below(2 * bound + 1) - bound) }
        var crossings = 0
        for _ in 0..<20_000 {
            let left = Int32(below(300))
            let top = Int32(below(100))
            let fill = UniformBlockRuns.OpenFill(
                left: left, top: top, right: left + 1 + Int32(below(300)), bottom: top + 1 + Int32(below(100)))
            let stepX = below(8) == 0 ? Int32(below(2) == 0 ? 0x10000 : 0) : signed(0x30000)
            let stepY = below(4) == 0 ? 0 : signed(below(2) == 0 ? 0x4000 : 0x30000)
            let spans = TurnedCardCompositor.OpenFillSpans(fill, stepX: stepX, stepY: stepY)
            let fixedX = signed(400 << 16) + (300 << 16)
            let fixedY = signed(150 << 16) + (100 << 16)
            let count = below(1200)
            let span = spans.span(fixedX: fixedX, fixedY: fixedY, count: count)
            var inside: [Int] = []
            for k in 0..<count {
                let blockX = (fixedX &+ Int32(k) &* stepX &- 0x8000) >> 16
                let blockY = (fixedY &+ Int32(k) &* stepY &- 0x8000) >> 16
                if blockX >= fill.left, blockX < fill.right, blockY >= fill.top, blockY < fill.bottom {
                    inside.append(k)
                }
            }
            if inside.isEmpty {
                XCTAssertTrue(span.isEmpty, "\(fill) from (\(fixedX), \(fixedY)) by (\(stepX), \(stepY)): \(span)")
            } else {
                crossings += 1
                XCTAssertEqual(
                    span, inside.first!..<(inside.last! + 1),
                    "\(fill) from (\(fixedX), \(fixedY)) by (\(stepX), \(stepY))")
                XCTAssertEqual(inside.count, inside.last! - inside.first! + 1)
            }
        }
        XCTAssertGreaterThan(crossings, 2_000)
    }

    /// Card-like rasters (a fill with text at the left, a short title over longer lines, so that
    /// there is fill beside the text's rectangle too, and transparent corners; every other one
    /// with an edge row of its own as antialiasing gives, the others with the fill to the edge,
    /// whose samples there take their colors from the edge table) turned, scaled and faded
    /// through the maps and the open fill: pixel for pixel what pixman gives.
    func testCardsThroughTheOpenFillMatchPixman() throws {
        var random = SplitMix64(seed: 43)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        let targetWidth = 360
        let targetHeight = 240
        var differing = 0
        var filled = 0
        var filledBeside = 0
        for round in 0..<80 {
            let width = 40 + below(300)
            let height = 12 + below(100)
            let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
            let fill: UInt32 = below(3) == 0 ? 0xFF00_0000 | UInt32(below(1 << 24)) : 0xEBEB_EBEB
            let textRight = below(width / 2)
            for y in 0..<height {
                for x in 0..<width {
                    let corner = (x < 3 || x >= width - 3) && (y < 3 || y >= height - 3)
                    let edge = round % 2 == 0 && (y == 0 || y == height - 1)
                    // A short title above longer lines of body.
                    let title = y >= 4 && y < height / 3 && x < textRight / 3
                    let body = y >= height / 2 && y < height - 4 && x < textRight
                    let text = x >= 4 && (title || body) && below(3) == 0
                    pixels[y * raster.stride / 4 + x] =
                        corner ? 0 : edge ? 0x7878_7878 : text ? UInt32(below(256)) * 0x0101_0101 : fill
                }
            }
            let targets = try CompositorTestTargets(
                width: targetWidth, height: targetHeight, oddOneIn: 9, random: &random)
            let target = targets.own
            let reference = targets.reference
            var item = DisplayList.Item(
                content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
                frame: Rect(
                    x: Double(below(300)) - 60 + unit(), y: Double(below(200)) - 40 + unit(), width: Double(width),
                    height: Double(height)))
            switch below(4) {
            case 0: item.rotation = 0
            case 1: item.rotation = (unit() - 0.5) * 0.5
            case 2: item.rotation = (unit() - 0.5) * 3
            default: item.rotation = 0.25 * unit()
            }
            item.scale = item.rotation == 0 ? 0.3 + unit() * 1.4 : below(2) == 0 ? 1 : 0.5 + unit()
            item.alpha = below(4) == 0 ? 1 : 0.02 + unit()

            let runs = UniformBlockRuns(width: width, height: height)
            try CardCompositor.draw(raster, item, onto: target, runs: runs, turnedCards: .own)
            try CardCompositor.draw(raster, item, onto: reference, turnedCards: .pixmanWithoutOutline)
            if runs.openFill != nil { filled += 1 }
            if runs.otherOpenFill != nil { filledBeside += 1 }
            let (count, firstDifference) = targets.differences()
            differing += count
            if let firstDifference {
                XCTFail(
                    "round \(round) (\(width)x\(height), fill \(String(describing: runs.openFill)), rotation "
                        + "\(item.rotation), scale \(item.scale), alpha \(item.alpha)): \(firstDifference)")
            }
            withExtendedLifetime(runs) {}
        }
        XCTAssertEqual(differing, 0)
        XCTAssertGreaterThan(filled, 60, "most rasters have an open fill")
        XCTAssertGreaterThan(filledBeside, 20, "many have a second beside it")
    }
}
