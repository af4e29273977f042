import MarqueeCore
import XCTest

/// The bands of rows a frame changed: sorted, disjoint, merged where they touch, and at most
/// `RowBands.capacity` of them, the closest joined past it, never a changed row lost.
final class RowBandsTests: XCTestCase {
    func testBandsStaySortedAndMergeWhereTheyTouchOrOverlap() {
        var bands = RowBands()
        XCTAssertTrue(bands.isEmpty)
        XCTAssertEqual(bands.covering, 0..<0)
        bands.insert(50..<60)
        bands.insert(10..<20)
        bands.insert(5..<5)
        XCTAssertEqual(Array(bands), [10..<20, 50..<60], "sorted; an empty range adds nothing")
        bands.insert(20..<25)
        XCTAssertEqual(Array(bands), [10..<25, 50..<60], "touching bands become one")
        bands.insert(30..<40)
        bands.insert(22..<55)
        XCTAssertEqual(Array(bands), [10..<60], "a band over several swallows them")
        XCTAssertEqual(bands.rowCount, 50)
        XCTAssertEqual(bands.covering, 10..<60)
    }

    func testPastTheCapTheTwoClosestBandsAreJoined() {
        var bands: RowBands = [0..<10, 100..<110, 200..<210, 300..<310]
        XCTAssertEqual(bands.count, RowBands.capacity)
        // A fifth band 5 rows after the third: those two are the closest pair.
        bands.insert(215..<220)
        XCTAssertEqual(Array(bands), [0..<10, 100..<110, 200..<220, 300..<310])
        // A fifth band before all others, closest to the first.
        bands.insert((-20)..<(-2))
        XCTAssertEqual(Array(bands), [(-20)..<10, 100..<110, 200..<220, 300..<310])
        // Closest pair among the existing ones when the new band is far from all.
        var spread: RowBands = [0..<10, 12..<20, 100..<110, 200..<210]
        spread.insert(400..<410)
        XCTAssertEqual(Array(spread), [0..<20, 100..<110, 200..<210, 400..<410])
    }

    /// Whatever is inserted, every inserted row is in a band, the bands are sorted and disjoint,
    /// and no more than the cap; with few enough places, no row is added.
    func testNoInsertedRowIsEverLost() {
        var random = SplitMix64(seed: 5)
        for round in 0..<300 {
            var bands = RowBands()
            var rows = Set<Int>()
            for _ in 0..<(1 + round % 9) {
                let top = Int(random.next() % 500)
                let band = top..<(top + Int(random.next() % 40))
                bands.insert(band)
                rows.formUnion(band)
            }
            XCTAssertLessThanOrEqual(bands.count, RowBands.capacity)
            for index in bands.indices.dropFirst() {
                XCTAssertLessThan(bands[index - 1].upperBound, bands[index].lowerBound, "round \(round): \(bands)")
            }
            for row in rows { XCTAssertTrue(bands.contains { $0.contains(row) }, "round \(round): row \(row) lost") }
            if bands.count < RowBands.capacity {
                XCTAssertEqual(bands.rowCount, rows.count, "round \(round): rows added though nothing was joined")
            }
        }
    }

    func testUnionAndClamping() {
        var bands: RowBands = [10..<20]
        bands.formUnion([0..<5, 18..<30, 40..<50])
        XCTAssertEqual(Array(bands), [0..<5, 10..<30, 40..<50])
        XCTAssertEqual(Array(bands.clamped(to: 3..<45)), [3..<5, 10..<30, 40..<45])
        XCTAssertEqual(bands.clamped(to: 60..<70), RowBands())
        XCTAssertNotEqual(bands, [0..<5, 10..<30])
    }
}
