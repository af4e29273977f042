import CPixman
import MarqueeCore
import XCTest

@testable import MarqueeRender

/// The raster cache counts what its images really take: a whole raster's map of uniform blocks
/// only once it is built (most rasters never get one), so the budget holds as many rasters as fit.
final class CardRasterCacheTests: XCTestCase {
    private func raster(width: Int, height: Int) throws(RenderError) -> CardImage {
        CardImage(wholeRaster: try PixmanImage(format: PIXMAN_a8r8g8b8, width: width, height: height))
    }

    private func key(_ id: String) -> CardRasterCache.Key {
        CardRasterCache.Key(card: Card(id: id), width: 100, height: 50)
    }

    func testMapIsChargedOnlyOnceBuilt() throws {
        let cache = CardRasterCache(budgetBytes: 1 << 20)
        let made = try raster(width: 100, height: 50)
        let image = try cache.image(for: key("a")) { made }
        let rasterBytes = try XCTUnwrap(image.image).byteCount
        XCTAssertEqual(cache.bytes, rasterBytes, "a raster without a map is charged its pixels only")

        let whole = try XCTUnwrap(image.image)
        XCTAssertNotNil(image.runs?.lengths(of: whole))
        _ = cache.cachedImage(for: key("a"))
        XCTAssertEqual(
            cache.bytes, rasterBytes + (3 * 100 * 50 + UniformBlockRuns.edgeTableBytes),
            "the next lookup charges the map built meanwhile")
        _ = cache.cachedImage(for: key("a"))
        XCTAssertEqual(
            cache.bytes, rasterBytes + (3 * 100 * 50 + UniformBlockRuns.edgeTableBytes), "and charges it once")
    }

    /// Eviction gives back what each entry was charged, map included: `bytes` never drifts.
    func testEvictionReturnsWhatWasCharged() throws {
        let rasterBytes = 100 * 50 * 4
        // Room for three rasters with maps; the fourth evicts down to three quarters.
        let cache = CardRasterCache(
            budgetBytes: 3 * (rasterBytes + (3 * 100 * 50 + UniformBlockRuns.edgeTableBytes)) + 100)
        for id in ["a", "b", "c"] {
            let image = try cache.image(for: key(id)) { () throws(RenderError) in try raster(width: 100, height: 50) }
            let whole = try XCTUnwrap(image.image)
            _ = image.runs?.lengths(of: whole)
            _ = cache.cachedImage(for: key(id))
        }
        XCTAssertEqual(cache.bytes, 3 * (rasterBytes + (3 * 100 * 50 + UniformBlockRuns.edgeTableBytes)))
        _ = try cache.image(for: key("d")) { () throws(RenderError) in try raster(width: 100, height: 50) }
        XCTAssertLessThan(cache.count, 4)
        XCTAssertNotNil(cache.cachedImage(for: key("d")), "the image just made is kept")
        var expected = rasterBytes
        for id in ["a", "b", "c"] where cache.cachedImage(for: key(id)) != nil {
            expected += rasterBytes + (3 * 100 * 50 + UniformBlockRuns.edgeTableBytes)
        }
        XCTAssertEqual(cache.bytes, expected)
    }
}
