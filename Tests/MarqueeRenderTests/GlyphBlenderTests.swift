import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// Text over a card's plain fill is blended by `GlyphBlender`, not pixman, and must give exactly
/// what pixman gives (OVER of a solid colour through an a8 glyph mask): random masks (empty,
/// full and partial coverage, widths around the 4-pixel step), random colours (opaque and not),
/// glyphs partly off the target or outside its clip rows, over a target that is mostly the fill
/// the table was made for and partly anything else (the fourth byte included), glyphs drawn
/// over each other in turn. And whole lines drawn glyph by glyph through the table (each glyph's
/// mask read as plain values, `GlyphMask`) give what pixman gives for the same line.
final class GlyphBlenderTests: XCTestCase {
    func testGlyphsOverAFillMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 23)
        func below(_ bound: Int) -> Int { GlyphTestPieces.below(bound, &random) }
        var differing = 0
        for round in 0..<200 {
            let color = GlyphTestPieces.color(&random)
            let solid = try PixmanImage(solid: color)
            let fill = below(4) == 0 ? UInt32(truncatingIfNeeded: random.next()) : 0xFF00_0000 | UInt32(below(1 << 24))
            let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
            let (width, height) = (61, 37)
            let (expected, got) = try GlyphTestPieces.targets(
                width: width, height: height, fill: fill, strayOneIn: 6, &random)
            for _ in 0..<(1 + below(6)) {
                let mask = try GlyphTestPieces.mask(widths: 23, heights: 30, &random)
                let x = below(width + 20) - 10
                let y = below(height + 20) - 10
                pixman_image_composite32(
                    PIXMAN_OP_OVER, solid.handle, mask.handle, expected.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(mask.width), Int32(mask.height))
                GlyphBlender.draw(mask, x: x, y: y, onto: got, table: table)
            }
            differing += GlyphTestPieces.differing(
                expected, got, round: round, drawnBy: "GlyphBlender", before: differing)
        }
        XCTAssertEqual(differing, 0)
    }

    /// `TextPainter.draw` with a table places every glyph where pixman's path places it (bearings,
    /// rounded pen positions and baseline), within a band's clip rows and off the image's edges,
    /// and reports the same rows.
    func testLinesThroughTheTableMatchPixmanPixelForPixel() throws {
        let face = try FontFace(
            library: try FreeTypeLibrary(), path: try FontLocator().path(for: "DejaVu Sans"), pixelSize: 19)
        let lines = TextLayout.lines(
            "Calling at Ålesund, Brightwater — fjord quay, 7 min (ÉÇÑ gjy)", face: face, maximumWidth: 10_000,
            maximumLines: 1)
        let line = try XCTUnwrap(lines.first)
        var random = SplitMix64(seed: 19)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let (width, height) = (260, 40)
        var differing = 0
        for round in 0..<60 {
            let color = pixman_color_t(
                red: UInt16(below(0x8000)), green: UInt16(below(0x8000)), blue: UInt16(below(0x8000)),
                alpha: round % 2 == 0 ? 0xFFFF : 0x8000)
            let solid = try PixmanImage(solid: color)
            let fill = 0xFF00_0000 | UInt32(below(1 << 24))
            let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
            let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let got = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let clip = round % 3 == 0 ? below(20)..<(20 + below(20)) : nil
            expected.clip(toRows: clip)
            got.clip(toRows: clip)
            let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
            let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
            for index in 0..<(expected.stride / 4 * height) {
                let pixel = below(40) == 0 ? UInt32(truncatingIfNeeded: random.next()) : fill
                a[index] = pixel
                b[index] = pixel
            }
            let x = Double(below(80 * 8)) / 8 - 40
            let baseline = Double(below(50 * 8)) / 8 - 2
            let pixmanRows = TextPainter.draw(line, face: face, color: solid, onto: expected, x: x, baseline: baseline)
            let tableRows = TextPainter.draw(
                line, face: face, color: solid, onto: got, x: x, baseline: baseline, table: table)
            XCTAssertEqual(tableRows, pixmanRows, "round \(round): rows")
            for index in 0..<(expected.stride / 4 * height) where a[index] != b[index] {
                if differing < 5 {
                    XCTFail(
                        "round \(round), pixel \(index): pixman \(String(a[index], radix: 16)), "
                            + "table \(String(b[index], radix: 16))")
                }
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }

    /// A text layer's coverage is added from the masks as plain values (`addCoverage`), eight
    /// bytes a step, and must be what pixman's ADD of each glyph's a8 mask gives: onto layers
    /// already holding coverage (sums past 255 held there), at fractional positions, partly off
    /// the layer's edges, the line drawn twice over itself so that glyphs overlap. The line's ink
    /// box, read from the same masks, spans the rows `rows` measures.
    func testCoverageAddedOntoALayerMatchesPixmanAdd() throws {
        let face = try FontFace(
            library: try FreeTypeLibrary(), path: try FontLocator().path(for: "DejaVu Sans"), pixelSize: 23)
        let lines = TextLayout.lines(
            "Office fjord, W. Ålesund — AVA Tjy «ffi» 7 min", face: face, maximumWidth: 10_000, maximumLines: 1)
        let line = try XCTUnwrap(lines.first)
        var random = SplitMix64(seed: 23)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let (width, height) = (203, 37)
        var differing = 0
        for round in 0..<80 {
            let expected = try PixmanImage(format: PIXMAN_a8, width: width, height: height)
            let got = try PixmanImage(format: PIXMAN_a8, width: width, height: height)
            let a = expected.pixels!.assumingMemoryBound(to: UInt8.self)
            let b = got.pixels!.assumingMemoryBound(to: UInt8.self)
            for index in 0..<(expected.stride * height) {
                let byte = round % 4 == 0 ? 0 : UInt8(truncatingIfNeeded: below(3) == 0 ? random.next() : 0)
                a[index] = byte
                b[index] = byte
            }
            for pass in 0..<(round % 2 + 1) {
                let x = Double(below(120 * 8)) / 8 - 60 + Double(pass) * 0.625
                let baseline = Double(below(40 * 8)) / 8 + Double(pass)
                TextPainter.draw(line, face: face, color: nil, onto: expected, x: x, baseline: baseline)
                TextPainter.addCoverage(line, face: face, onto: got, x: x, baseline: baseline)
                let ink = try XCTUnwrap(TextPainter.inkBounds(line, face: face, x: x, baseline: baseline))
                XCTAssertEqual(
                    ink.y0..<ink.y1, TextPainter.rows(line, face: face, baseline: baseline), "round \(round)")
            }
            for index in 0..<(expected.stride * height) where a[index] != b[index] {
                if differing < 5 { XCTFail("round \(round), byte \(index): pixman \(a[index]), added \(b[index])") }
                differing += 1
            }
        }
        XCTAssertEqual(differing, 0)
    }
}
