import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// Marquee's own compositor for turned cards must give exactly what pixman gives for the same
/// card, transform and opacity (the SPEC's "pixman does this"): on random rasters (a plain fill
/// with random pixels and transparent margins, as cards have), random frames partly off the
/// target, turns, scales and opacities, over random targets (the fourth byte included).
final class TurnedCardCompositorTests: XCTestCase {
    func testTurnedCardsMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 11)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        func premultiplied() -> UInt32 {
            let alpha = UInt32(below(256))
            func channel() -> UInt32 { UInt32(below(Int(alpha) + 1)) }
            return alpha << 24 | channel() << 16 | channel() << 8 | channel()
        }
        var differing = 0
        for round in 0..<120 {
            let width = 8 + below(150)
            let height = 4 + below(70)
            let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let fill = below(4) == 0 ? 0xFF00_0000 | UInt32(below(1 << 24)) : premultiplied()
            let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
            let margin = below(4)
            for y in 0..<height {
                for x in 0..<width {
                    let inside = x >= margin && y >= margin && x < width - margin && y < height - margin
                    pixels[y * raster.stride / 4 + x] = !inside ? 0 : below(8) == 0 ? premultiplied() : fill
                }
            }
            let targets = try CompositorTestTargets(width: 160, height: 120, oddOneIn: 5, random: &random)
            let target = targets.own
            let reference = targets.reference

            var item = DisplayList.Item(
                content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
                frame: Rect(
                    x: Double(below(200)) - 50 + unit(), y: Double(below(150)) - 40 + unit(), width: Double(width),
                    height: Double(height)))
            item.rotation = (unit() - 0.5) * 1.2
            if item.rotation == 0 { item.rotation = 0.01 }
            item.scale = below(3) == 0 ? 1 : 0.5 + unit()
            item.alpha = below(3) == 0 ? 1 : 0.02 + unit()

            try CardCompositor.draw(raster, item, onto: target, turnedCards: .own)
            try CardCompositor.draw(raster, item, onto: reference, turnedCards: .pixmanWithoutOutline)
            let (count, firstDifference) = targets.differences()
            differing += count
            if let firstDifference {
                XCTFail(
                    "round \(round) (\(width)x\(height), rotation \(item.rotation), scale \(item.scale), "
                        + "alpha \(item.alpha)): \(firstDifference)")
            }
        }
        XCTAssertEqual(differing, 0)
    }

    /// The same, through the runs of uniform blocks (a card raster kept across frames): rasters
    /// with large plain areas (where runs are long), spots and stripes (where they break), a
    /// transparent margin, colors that are not validly premultiplied now and then (pixman
    /// saturates them), any turn (right angles and beyond included) or none with a scale, and
    /// frames large and small, over targets of a plain color with noise.
    func testRunsOfUniformBlocksMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 19)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        func color() -> UInt32 {
            if below(10) == 0 { return UInt32(truncatingIfNeeded: random.next()) }
            let alpha = UInt32(below(256))
            func channel() -> UInt32 { UInt32(below(Int(alpha) + 1)) }
            return alpha << 24 | channel() << 16 | channel() << 8 | channel()
        }
        let targetWidth = 320
        let targetHeight = 200
        var differing = 0
        var runsUsed = 0
        for round in 0..<160 {
            let width = 2 + below(below(2) == 0 ? 40 : 300)
            let height = 2 + below(below(2) == 0 ? 20 : 120)
            let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let fill = below(3) == 0 ? 0xFF00_0000 | UInt32(below(1 << 24)) : color()
            let other = color()
            let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
            let margin = below(3)
            let spots = below(4)
            let stripe = below(3) == 0 ? below(height) : -1
            for y in 0..<height {
                for x in 0..<width {
                    let inside = x >= margin && y >= margin && x < width - margin && y < height - margin
                    let texel: UInt32 =
                        !inside ? 0 : y == stripe ? other : spots > 0 && below(40 / spots) == 0 ? color() : fill
                    pixels[y * raster.stride / 4 + x] = texel
                }
            }
            let targets = try CompositorTestTargets(
                width: targetWidth, height: targetHeight, oddOneIn: 7, random: &random)
            let target = targets.own
            let reference = targets.reference

            var item = DisplayList.Item(
                content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
                frame: Rect(
                    x: Double(below(360)) - 60 + unit(), y: Double(below(240)) - 40 + unit(), width: Double(width),
                    height: Double(height)))
            switch below(4) {
            case 0: item.rotation = 0
            case 1: item.rotation = (unit() - 0.5) * 0.6
            case 2: item.rotation = (unit() - 0.5) * 7
            default: item.rotation = Double(below(4)) * .pi / 2 + (unit() - 0.5) * 0.01
            }
            item.scale = item.rotation == 0 || below(3) > 0 ? 0.2 + unit() * 1.6 : 1
            if item.scale == 1 && item.rotation == 0 { item.scale = 0.7 }
            item.alpha = below(3) == 0 ? 1 : 0.02 + unit()

            let runs = UniformBlockRuns(width: width, height: height)
            try CardCompositor.draw(raster, item, onto: target, runs: runs, turnedCards: .own)
            try CardCompositor.draw(raster, item, onto: reference, turnedCards: .pixmanWithoutOutline)
            if let map = runs.lengths(of: raster), (0..<(width * height)).contains(where: { map[$0] > 3 }) {
                runsUsed += 1
            }
            let (count, firstDifference) = targets.differences()
            differing += count
            if let firstDifference {
                XCTFail(
                    "round \(round) (\(width)x\(height), rotation \(item.rotation), scale \(item.scale), "
                        + "alpha \(item.alpha)): \(firstDifference)")
            }
        }
        XCTAssertEqual(differing, 0)
        XCTAssertGreaterThan(runsUsed, 100, "most rasters have long runs")
    }

    /// A run's length in the map: the blocks to its right that are uniform, up to a texel that
    /// differs in either row; none on the last row and column.
    func testUniformBlockRunsCountUniformBlocks() throws {
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 6, height: 3)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        let row = raster.stride / 4
        for y in 0..<3 { for x in 0..<6 { pixels[y * row + x] = 0x8040_2010 } }
        pixels[1 * row + 4] = 0xFF00_0000
        let runs = UniformBlockRuns(width: 6, height: 3)
        let map = try XCTUnwrap(runs.lengths(of: raster))
        XCTAssertEqual((0..<6).map { UniformBlockRuns.ownCount(map[$0]) }, [3, 2, 1, 0, 0, 0])
        XCTAssertEqual((0..<6).map { UniformBlockRuns.ownCount(map[6 + $0]) }, [3, 2, 1, 0, 0, 0])
        XCTAssertEqual((0..<6).map { map[12 + $0] }, [0, 0, 0, 0, 0, 0])
        withExtendedLifetime(runs) {}
    }

    /// The row's own map marks the runs of the raster's commonest color (its fill), and only
    /// those, so that the compositor can take their color without reading the raster; its counts
    /// stop at 127, the other maps' at 255.
    func testOwnMapMarksTheFillsRuns() throws {
        let width = 300
        let height = 30
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        let row = raster.stride / 4
        let fill: UInt32 = 0xE070_3810
        let other: UInt32 = 0x8010_2030
        for y in 0..<height { for x in 0..<width { pixels[y * row + x] = x < 40 && y < 6 ? other : fill } }
        let runs = UniformBlockRuns(width: width, height: height)
        let map = try XCTUnwrap(runs.lengths(of: raster))
        XCTAssertEqual(runs.commonColor, fill)
        // Row 2: blocks 0...38 are the other color, 39 straddles both, 40... are the fill.
        let own = (0..<width).map { map[2 * width + $0] }
        XCTAssertEqual(own[0], 39, "not the fill: unmarked")
        XCTAssertEqual(own[38], 1)
        XCTAssertEqual(own[39], 0)
        XCTAssertEqual(own[40], 0x80 | 127, "the fill's run of 259 blocks, marked and capped")
        XCTAssertEqual(own[width - 3], 0x80 | 2)
        XCTAssertEqual(own[width - 2], 0x80 | 1)
        XCTAssertEqual(own[width - 1], 0, "the last column starts no block")
        XCTAssertTrue(own[0...39].allSatisfy { !UniformBlockRuns.isCommon($0) })
        XCTAssertTrue(own[40..<(width - 1)].allSatisfy { UniformBlockRuns.isCommon($0) })
        // The other maps, from the counts before they were capped: the fill's run from column
        // 40 on rows 10 ... 14 around row 12, and on rows 4 ... 20.
        XCTAssertEqual(map[(height + 12) * width + 40], 255)
        XCTAssertEqual(map[(2 * height + 12) * width + 40], 255)
        withExtendedLifetime(runs) {}
    }

    /// The third map's runs hold for the seventeen rows from eight above to eight below: a texel
    /// that differs ends them on every row whose window reaches the blocks it is in, and on no
    /// other; rows within eight of the raster's edges have none (its last row starts no block).
    func testWideMapHoldsForSeventeenRows() throws {
        let width = 5
        let height = 30
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        let row = raster.stride / 4
        for y in 0..<height { for x in 0..<width { pixels[y * row + x] = 0xC060_3010 } }
        // Each is in the blocks of rows 1 and 2, and of rows 23 and 24.
        pixels[2 * row + 1] = 0xFF00_0000
        pixels[24 * row + 1] = 0xFF00_0000
        let runs = UniformBlockRuns(width: width, height: height)
        let map = try XCTUnwrap(runs.lengths(of: raster))
        func wide(_ y: Int) -> [UInt8] { (0..<width).map { map[(2 * height + y) * width + $0] } }
        for y in 0..<8 { XCTAssertEqual(wide(y), [0, 0, 0, 0, 0], "row \(y)") }
        for y in 8...10 { XCTAssertEqual(wide(y), [0, 0, 2, 1, 0], "row \(y)") }
        for y in 11...14 { XCTAssertEqual(wide(y), [4, 3, 2, 1, 0], "row \(y)") }
        for y in 15...20 { XCTAssertEqual(wide(y), [0, 0, 2, 1, 0], "row \(y)") }
        for y in 21..<height { XCTAssertEqual(wide(y), [0, 0, 0, 0, 0], "row \(y)") }
        XCTAssertEqual(runs.byteCount, 3 * width * height + UniformBlockRuns.edgeTableBytes)
        withExtendedLifetime(runs) {}
    }

    /// pixman's path (tinted turned cards) is clipped to the card's outline, which must leave
    /// out only pixels the card does not touch: the same as over the whole bounding box.
    func testOutlineLeavesOutOnlyUntouchedPixels() throws {
        var random = SplitMix64(seed: 29)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        for round in 0..<60 {
            let width = 8 + below(150)
            let height = 4 + below(70)
            let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
            let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
            for y in 0..<height {
                for x in 0..<width { pixels[y * raster.stride / 4 + x] = 0xFF00_0000 | UInt32(below(1 << 24)) }
            }
            let clipped = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 160, height: 120)
            let whole = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 160, height: 120)
            var item = DisplayList.Item(
                content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
                frame: Rect(
                    x: Double(below(200)) - 50 + unit(), y: Double(below(150)) - 40 + unit(), width: Double(width),
                    height: Double(height)))
            item.rotation = (unit() - 0.5) * 7
            if item.rotation == 0 { item.rotation = 0.01 }
            item.scale = 0.3 + unit() * 1.5
            try CardCompositor.draw(raster, item, onto: clipped, turnedCards: .pixman)
            try CardCompositor.draw(raster, item, onto: whole, turnedCards: .pixmanWithoutOutline)
            let a = clipped.pixels!.assumingMemoryBound(to: UInt32.self)
            let b = whole.pixels!.assumingMemoryBound(to: UInt32.self)
            let differing = (0..<(160 * 120)).filter { a[$0] != b[$0] }.count
            XCTAssertEqual(differing, 0, "round \(round): rotation \(item.rotation), scale \(item.scale)")
        }
    }

    /// The tests above would pass if neither path drew anything: a turned opaque card must cover
    /// the target's pixels at its center.
    func testATurnedCardIsDrawn() throws {
        let raster = try PixmanImage(format: PIXMAN_a8r8g8b8, width: 40, height: 20)
        let pixels = raster.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(raster.stride / 4 * 20) { pixels[index] = 0xFF11_2233 }
        let target = try PixmanImage(format: PIXMAN_x8r8g8b8, width: 100, height: 100)
        var item = DisplayList.Item(
            content: .card(Card(id: "t"), index: 0, section: 0, item: 0),
            frame: Rect(x: 30, y: 40, width: 40, height: 20))
        item.rotation = 0.3
        try CardCompositor.draw(raster, item, onto: target, turnedCards: .own)
        let drawn = target.pixels!.assumingMemoryBound(to: UInt32.self)
        XCTAssertEqual(drawn[50 * 100 + 50], 0xFF11_2233)
        XCTAssertEqual(drawn[5 * 100 + 5], 0)
    }
}

/// The compositor's span of a row (`TurnedCardCompositor.Reach`) against the walk itself: every
/// pixel whose sample reaches the raster is in it, and at most one pixel more at either end.
final class TurnedCardReachTests: XCTestCase {
    func testSpansHoldEveryPixelThatReachesTheRaster() throws {
        var random = SplitMix64(seed: 23)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        var spans = 0
        for _ in 0..<400 {
            let width = Int32(1 + below(300))
            let height = Int32(1 + below(120))
            let rotation = below(4) == 0 ? Double(below(4)) * .pi / 2 : (unit() - 0.5) * 7
            let scale = 0.1 + unit() * 3
            var transform = pixman_f_transform()
            pixman_f_transform_init_identity(&transform)
            pixman_f_transform_translate(&transform, nil, -(unit() * 300 - 50), -(unit() * 200 - 40))
            pixman_f_transform_rotate(&transform, nil, cos(rotation), -sin(rotation))
            pixman_f_transform_scale(&transform, nil, 1 / scale, 1 / scale)
            pixman_f_transform_translate(&transform, nil, Double(width) / 2, Double(height) / 2)
            var fixed = pixman_transform()
            pixman_transform_from_pixman_f_transform(&fixed, &transform)
            let reach = try XCTUnwrap(TurnedCardCompositor.Reach(fixed, width: width, height: height))
            let columns: Range<Int32> = Int32(below(40)) - 20..<Int32(200 + below(200))
            for y in Int32(-10)..<Int32(230) {
                // The walk as pixman takes it, pixel by pixel from the row's first column.
                var point = pixman_vector(vector: ((columns.lowerBound << 16) + 0x8000, (y << 16) + 0x8000, 0x10000))
                XCTAssertNotEqual(pixman_transform_point_3d(&fixed, &point), 0)
                var reaching: [Int] = []
                for x in columns {
                    let step = Int32(x - columns.lowerBound)
                    let sampleX = (point.vector.0 &+ step &* fixed.matrix.0.0) &- 0x8000
                    let sampleY = (point.vector.1 &+ step &* fixed.matrix.1.0) &- 0x8000
                    let left = sampleX >> 16
                    let top = sampleY >> 16
                    if left >= -1, left < width, top >= -1, top < height { reaching.append(Int(x)) }
                }
                guard let span = reach.span(ofRow: y, within: columns) else {
                    XCTAssertEqual(reaching, [], "row \(y): no span")
                    continue
                }
                spans += 1
                let first = reaching.first ?? span.x
                let last = reaching.last ?? span.x
                XCTAssertTrue(span.x <= first && first <= span.x + 1, "row \(y): starts at \(span.x), first \(first)")
                XCTAssertTrue(span.end > last && span.end <= last + 2, "row \(y): ends at \(span.end), last \(last)")
                XCTAssertTrue(reaching.count <= 1 || reaching.count == last - first + 1)
                let step = Int32(span.x) - columns.lowerBound
                XCTAssertEqual(span.fixedX, point.vector.0 &+ step &* fixed.matrix.0.0)
                XCTAssertEqual(span.fixedY, point.vector.1 &+ step &* fixed.matrix.1.0)
            }
        }
        XCTAssertGreaterThan(spans, 10_000)
    }
}
