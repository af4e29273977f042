import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// Glyphs drawn from their blends over a fill (`BlendedGlyphs`, `GlyphBlender.draw(blended:...)`)
/// must give exactly what pixman gives for OVER of the colour through each mask, wherever they
/// land: rows over the fill are stored as made (rounded up to four pixels, the fill past the
/// mask), rows over anything else (another glyph, a stray pixel) go through the table, and a
/// glyph whose rounded rows would leave the frame is drawn the old way. And a face keeps the
/// blends of a few tables only, dropping those not asked for since before the last frame.
final class BlendedGlyphTests: XCTestCase {
    func testGlyphsFromTheirBlendsMatchPixmanPixelForPixel() throws {
        var random = SplitMix64(seed: 41)
        func below(_ bound: Int) -> Int { GlyphTestPieces.below(bound, &random) }
        var differing = 0
        var madeRows = 0
        for round in 0..<200 {
            let color = GlyphTestPieces.color(&random)
            let solid = try PixmanImage(solid: color)
            let fill = 0xFF00_0000 | UInt32(below(1 << 24))
            let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
            let blends = BlendedGlyphs(table: table, glyphCount: 16)
            let (width, height) = (57, 41)
            // Mostly the fill (as under a card's text), with a few other pixels.
            let (expected, got) = try GlyphTestPieces.targets(
                width: width, height: height, fill: fill, strayOneIn: 60, &random)
            let frame = try XCTUnwrap(GlyphBlender.Frame(got))
            // Glyphs drawn over each other in turn, one of them twice (its blends made once).
            var glyphs: [(mask: PixmanImage, glyph: GlyphMask, index: UInt32)] = []
            for index in 0..<UInt32(1 + below(5)) {
                let mask = try GlyphTestPieces.mask(widths: 21, heights: 28, &random)
                let glyph = GlyphMask(Glyph(mask: mask, bearingX: 0, bearingY: 0, advance: 0))
                glyphs.append((mask, glyph, index))
            }
            glyphs.append(glyphs[0])
            for (mask, glyph, index) in glyphs {
                // Off every edge now and then: the frame's right edge sends a glyph the old way.
                let x = below(width + 16) - 8
                let y = below(height + 16) - 8
                pixman_image_composite32(
                    PIXMAN_OP_OVER, solid.handle, mask.handle, expected.handle, 0, 0, 0, 0, Int32(x), Int32(y),
                    Int32(mask.width), Int32(mask.height))
                let coverage = try XCTUnwrap(glyph.coverage)
                let pixels = try XCTUnwrap(blends.pixels(index, mask: glyph, coverage: coverage))
                if x >= 0, x + BlendedGlyphs.span(ofWidth: glyph.width) <= width { madeRows += glyph.height }
                GlyphBlender.draw(
                    blended: pixels, coverage: coverage, width: glyph.width, height: glyph.height,
                    stride: glyph.stride, x: x, y: y, onto: frame, table: table)
            }
            differing += GlyphTestPieces.differing(expected, got, round: round, drawnBy: "blended", before: differing)
        }
        XCTAssertEqual(differing, 0)
        XCTAssertGreaterThan(madeRows, 1000, "the made rows' path ran")
    }

    /// Whole lines of a real face drawn through a table take the blends (`TextPainter.draw`) and
    /// give what pixman gives, over and over as a scroll draws them.
    func testLinesDrawnFromBlendsMatchPixman() throws {
        let face = try FontFace(
            library: try FreeTypeLibrary(), path: try FontLocator().path(for: "DejaVu Sans"), pixelSize: 21)
        let line = try XCTUnwrap(
            TextLayout.lines(
                "Card 4711 · Ålesund fjord quay, TeVAWAy gjy", face: face, maximumWidth: 10_000, maximumLines: 1
            ).first)
        let color = pixman_color_t(red: 0x1A1A, green: 0x1A1A, blue: 0x1F1F, alpha: 0xFFFF)
        let solid = try PixmanImage(solid: color)
        let fill: UInt32 = 0xFFFF_EBEB
        let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
        let (width, height) = (480, 44)
        for round in 0..<4 {
            let expected = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let got = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
            let a = expected.pixels!.assumingMemoryBound(to: UInt32.self)
            let b = got.pixels!.assumingMemoryBound(to: UInt32.self)
            for index in 0..<(expected.stride / 4 * height) {
                a[index] = fill
                b[index] = fill
            }
            let x = Double(round) * 3.25 - 2
            TextPainter.draw(line, face: face, color: solid, onto: expected, x: x, baseline: 30)
            TextPainter.draw(line, face: face, color: solid, onto: got, x: x, baseline: 30, table: table)
            var differing = 0
            for index in 0..<(expected.stride / 4 * height) where a[index] != b[index] { differing += 1 }
            XCTAssertEqual(differing, 0, "round \(round)")
        }
        XCTAssertGreaterThan(face.blendedGlyphs(through: table)?.bytes ?? 0, 0, "the line took the blends")
    }

    /// A face keeps the blends of `blendedTablesLimit` tables; a new table takes the place of one
    /// not asked for since before the last frame, and gets none while every kept table was asked
    /// for in this frame or the last (lines in more colours than the limit go through the table).
    func testAFaceKeepsAFewTablesAndDropsStaleOnes() throws {
        let face = try FontFace(
            library: try FreeTypeLibrary(), path: try FontLocator().path(for: "DejaVu Sans"), pixelSize: 16)
        func table(_ fill: UInt32, frame: Int) throws -> GlyphBlender.OverTable {
            let made = try XCTUnwrap(GlyphBlender.OverTable(color: 0xFF10_2030, fill: 0xFF00_0000 | fill))
            made.frame = frame
            return made
        }
        let limit = FontFace.blendedTablesLimit
        let kept = try (0..<limit).map { try table(UInt32($0), frame: 10) }
        for each in kept { XCTAssertTrue(face.blendedGlyphs(through: each)?.table === each) }
        // The same frame and the next: no room.
        XCTAssertNil(face.blendedGlyphs(through: try table(100, frame: 10)))
        XCTAssertNil(face.blendedGlyphs(through: try table(101, frame: 11)))
        // Two frames on, the first kept table (asked for at frame 10) makes room.
        kept[1].frame = 12
        let later = try table(102, frame: 12)
        XCTAssertTrue(face.blendedGlyphs(through: later)?.table === later)
        XCTAssertTrue(face.blendedGlyphs(through: kept[1])?.table === kept[1])
        XCTAssertNil(face.blendedGlyphs(through: kept[0]), "dropped, and no kept table is stale at its frame")
    }
}
