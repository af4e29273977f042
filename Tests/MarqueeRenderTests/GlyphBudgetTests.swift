import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The glyph cache's byte budget (`GlyphBudget`, `GlyphTable`): distinct large glyphs drawn frame
/// after frame keep the kept bytes within the budget, the glyphs of the frame being drawn are never
/// evicted (their masks may be in use), the glyphs used every frame outlast those used once, and a
/// glyph evicted and needed again draws exactly as before on every text path (pixman's glyph
/// cache, the blend table, coverage added onto a layer).
final class GlyphBudgetTests: XCTestCase {
    /// Noto Sans CJK SC at `pixels` through a library of its own with `budget` bytes.
    private func cjkFace(pixels: Int, budget: Int = GlyphBudget.defaultBudgetBytes) throws -> FontFace {
        let library = try FreeTypeLibrary(glyphBudgetBytes: budget)
        let file = try FontLocator().file(for: "Noto Sans CJK SC")
        return try FontFace(library: library, path: file.path, index: file.index, pixelSize: pixels)
    }

    /// One line of `text`.
    private func line(_ text: String, _ face: FontFace) throws -> TextLine {
        try XCTUnwrap(TextLayout.lines(text, face: face, maximumWidth: 100_000, maximumLines: 1).first)
    }

    /// `text` drawn three ways onto fresh images, their bytes appended: through pixman's glyph
    /// cache onto ARGB, through a blend table onto the fill, as coverage onto an 8-bit layer.
    private func drawings(_ text: String, _ face: FontFace, width: Int, height: Int, baseline: Double) throws
        -> [UInt8]
    {
        let line = try line(text, face)
        let color = pixman_color_t(red: 0x1A1A, green: 0x4040, blue: 0x8080, alpha: 0xFFFF)
        let solid = try PixmanImage(solid: color)
        let fill: UInt32 = 0xFFF0_E0D0
        let table = try XCTUnwrap(GlyphBlender.OverTable(color: SolidFill.pixel(color), fill: fill))
        let argb = try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height)
        TextPainter.draw(line, face: face, color: solid, onto: argb, x: 3, baseline: baseline)
        let filled = try PixmanImage(format: PIXMAN_x8r8g8b8, width: width, height: height)
        let pixels = filled.pixels!.assumingMemoryBound(to: UInt32.self)
        for index in 0..<(filled.stride / 4 * height) { pixels[index] = fill }
        TextPainter.draw(line, face: face, color: solid, onto: filled, x: 3, baseline: baseline, table: table)
        let layer = try PixmanImage(format: PIXMAN_a8, width: width, height: height)
        TextPainter.addCoverage(line, face: face, onto: layer, x: 3, baseline: baseline)
        var bytes: [UInt8] = []
        for image in [argb, filled, layer] {
            bytes += Array(UnsafeRawBufferPointer(start: image.pixels!, count: image.byteCount))
        }
        return bytes
    }

    /// Distinct CJK characters, from U+4E00.
    private func character(_ number: Int) -> String { String(Character(Unicode.Scalar(0x4E00 + number)!)) }

    /// 80 distinct glyphs at 900 px (about 0.7 MB each, twice that with pixman's copy), one new one a
    /// frame: over 100 MB kept without a budget; with it the bytes stay within the default 32 MiB after
    /// every frame, and glyphs were evicted.
    func testDistinctLargeGlyphsStayWithinTheBudget() throws {
        let face = try cjkFace(pixels: 900)
        let budget = face.glyphCache
        XCTAssertEqual(budget.budgetBytes, 32 << 20)
        var peak = 0
        for number in 0..<80 {
            budget.nextFrame()
            _ = try drawings(character(number), face, width: 1000, height: 1000, baseline: 880)
            peak = max(peak, budget.bytes)
            XCTAssertLessThanOrEqual(budget.bytes, budget.budgetBytes, "after glyph \(number)")
        }
        XCTAssertEqual(face.rasterizedGlyphCount, 80)
        XCTAssertGreaterThan(budget.evictedCount, 40)
        XCTAssertGreaterThan(peak, budget.budgetBytes / 2, "the glyphs were counted")
    }

    /// A glyph evicted and needed again is rasterized again and draws exactly as it did, through
    /// pixman's glyph cache (its copy dropped with the glyph: a new glyph at the freed address
    /// must not find it), the blend table and the coverage path.
    func testAGlyphEvictedAndNeededAgainDrawsTheSame() throws {
        let face = try cjkFace(pixels: 300, budget: 2 << 20)
        let budget = face.glyphCache
        let text = "\u{6F22}\u{5B57}\u{FF0C}\u{9F8D}"
        budget.nextFrame()
        let first = try drawings(text, face, width: 1240, height: 340, baseline: 290)
        let indices = try line(text, face).glyphs.map(\.index)
        let rasterized = face.rasterizedGlyphCount
        // Other glyphs, one frame each, until the text's are all gone.
        var number = 0
        while indices.contains(where: { face.keepsGlyph($0) }) {
            budget.nextFrame()
            _ = try drawings(character(number) + character(number + 1), face, width: 640, height: 340, baseline: 290)
            number += 2
            XCTAssertLessThan(number, 400, "the text's glyphs are evicted")
            if number >= 400 { return }
        }
        XCTAssertLessThanOrEqual(budget.bytes, budget.budgetBytes)
        budget.nextFrame()
        let again = try drawings(text, face, width: 1240, height: 340, baseline: 290)
        XCTAssertGreaterThan(face.rasterizedGlyphCount, rasterized + number, "rasterized again")
        XCTAssertTrue(first == again, "the same pixels after eviction")
    }

    /// Glyphs of the frame being drawn stay, even past the budget: a frame of 30 distinct 300 px
    /// glyphs (about 2.7 MB with a 1 MiB budget) keeps them all, and drawing them again in the same
    /// frame rasterizes none. The next frame's new glyph makes room by evicting them.
    func testGlyphsOfTheFrameBeingDrawnAreNeverEvicted() throws {
        let face = try cjkFace(pixels: 300, budget: 1 << 20)
        let budget = face.glyphCache
        budget.nextFrame()
        let text = (0..<30).map(character).joined()
        let first = try drawings(text, face, width: 9100, height: 340, baseline: 290)
        XCTAssertEqual(face.rasterizedGlyphCount, 30)
        XCTAssertGreaterThan(budget.bytes, budget.budgetBytes, "past the budget within the frame")
        XCTAssertEqual(budget.evictedCount, 0)
        let again = try drawings(text, face, width: 9100, height: 340, baseline: 290)
        XCTAssertEqual(face.rasterizedGlyphCount, 30, "none rasterized again in the same frame")
        XCTAssertTrue(first == again)
        budget.nextFrame()
        _ = try drawings(character(100), face, width: 340, height: 340, baseline: 290)
        XCTAssertLessThanOrEqual(budget.bytes, budget.budgetBytes, "the next frame makes room")
        XCTAssertGreaterThan(budget.evictedCount, 0)
    }

    /// The least recently used go first: a glyph drawn every frame (through the table's masks as
    /// plain values, which mark it too) is never rasterized again while new glyphs come and go.
    func testGlyphsUsedEveryFrameStay() throws {
        let face = try cjkFace(pixels: 300, budget: 1 << 20)
        let budget = face.glyphCache
        let kept = try line("\u{9F8D}", face).glyphs[0].index
        for number in 1...60 {
            budget.nextFrame()
            _ = face.mask(kept)
            _ = try drawings(character(number), face, width: 340, height: 340, baseline: 290)
            XCTAssertTrue(face.keepsGlyph(kept), "frame \(number)")
        }
        XCTAssertGreaterThan(budget.evictedCount, 20)
        XCTAssertEqual(face.rasterizedGlyphCount, 61)
    }

    /// Through the renderer (which starts a frame of the budget per frame drawn): a card whose
    /// template text element (1000 px, clipped, as a feed's field
    /// update draws it) shows a new CJK character each frame keeps the glyph bytes within the budget.
    func testTheRendererKeepsGlyphsWithinTheBudget() throws {
        let renderer = try Renderer()
        let size = PixelSize(width: 1100, height: 1200)
        let buffer = PixelBuffer(width: size.width, height: size.height)
        for number in 0..<48 {
            let deck = try DeckDecoder.decode(
                """
                {"templates": {"big": {"height": 1100, "elements": [{"text": "f", "left": 0, "top": 0, "right": 0,
                   "size": 1000, "overflow": "clip", "font": "Noto Sans CJK SC"}]}},
                 "sections": [{"cards": [{"id": "a", "template": "big", "fields": {"f": "\(character(number))"}}]}]}
                """)
            let scene = Scene(deck: deck, viewport: size)
            var list = DisplayList()
            var frameScene = scene
            _ = frameScene.frame(at: FrameTime(timestamp: 1, targetTimestamp: 1 + 1.0 / 60), into: &list)
            try renderer.render(list, deck: deck, into: buffer)
            XCTAssertLessThanOrEqual(renderer.glyphCacheBytes, renderer.glyphCacheBudgetBytes, "frame \(number)")
        }
        XCTAssertGreaterThanOrEqual(renderer.rasterizedGlyphCount, 48)
    }
}
