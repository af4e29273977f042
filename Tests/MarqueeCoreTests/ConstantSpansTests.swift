import XCTest

@testable import MarqueeCore

/// The band renderer's table of fills left to the copy: whatever the order of fills and of the
/// writes that first ask for what lies under them, the band with the table's spans written into
/// it must be the band every fill would have made, and every span must cover whole lines.
final class ConstantSpansTests: XCTestCase {
    /// Random fills (boxes of any size, narrower than a line or across many), random drawing
    /// (`materialize`, then pixels of its own written into the band) and random windows, at
    /// each phase of the line grid, against a frame where everything is written at once.
    func testTheBandWithItsSpansIsWhatEveryFillWouldHaveMade() {
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<400 {
            let width = Int.random(in: 1...200, using: &generator)
            let height = Int.random(in: 1...40, using: &generator)
            let phase = Int.random(in: 0..<16, using: &generator)
            let window = Int.random(in: 0..<height)..<height
            let spans = ConstantSpans(rows: height, linePixels: 16, phase: phase)
            let band = PixelBuffer(width: width, height: height)
            let expected = PixelBuffer(width: width, height: height)
            spans.begin(window: window, of: band)
            for step in 0..<Int.random(in: 1...30, using: &generator) {
                let x0 = Int.random(in: -20...width, using: &generator)
                let x1 = Int.random(in: x0...(width + 20), using: &generator)
                let y0 = Int.random(in: -5...height, using: &generator)
                let y1 = Int.random(in: y0...(height + 5), using: &generator)
                let pixel = UInt32(trial * 1000 + step) | 0xFF00_0000
                let rows = max(y0, window.lowerBound)..<max(min(y1, window.upperBound), max(y0, window.lowerBound))
                let columns = max(x0, 0)..<max(min(x1, width), max(x0, 0))
                if Bool.random(using: &generator) {
                    spans.fill(columns: x0..<x1, rows: y0..<y1, pixel: pixel)
                    write(pixel, columns: columns, rows: rows, into: expected)
                } else {
                    // Drawing: what it covers is materialized, then read and written as it likes
                    // (here: each pixel's bits turned over, so what was under it counts).
                    spans.materialize(columns: x0..<x1, rows: y0..<y1)
                    invert(columns: columns, rows: rows, of: band)
                    invert(columns: columns, rows: rows, of: expected)
                }
            }
            checkShape(spans, window: window, width: width)
            spans.materializeAll()
            for y in window {
                for x in 0..<width where band.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                    return XCTFail("trial \(trial) (\(width)x\(height), phase \(phase)): (\(x), \(y)) differs")
                }
            }
        }
    }

    /// A span starts and ends on the line grid (or at the row's end), rows hold them left to
    /// right without overlap, and none lies outside the window.
    private func checkShape(_ spans: ConstantSpans, window: Range<Int>, width: Int) {
        for y in (window.lowerBound - 2)..<(window.upperBound + 2) {
            let row = Array(spans.spans(ofRow: y))
            if !window.contains(y) {
                XCTAssertTrue(row.isEmpty, "row \(y) outside the window holds spans")
                continue
            }
            var end = 0
            for span in row {
                XCTAssertLessThan(span.x0, span.x1)
                XCTAssertGreaterThanOrEqual(span.x0, end, "row \(y): spans overlap or are out of order")
                XCTAssertEqual(spans.alignDown(span.x0), span.x0, "row \(y): a span starts off the grid")
                XCTAssertEqual(spans.alignDown(span.x1), span.x1, "row \(y): a span ends off the grid")
                XCTAssertLessThanOrEqual(span.x1, width)
                end = span.x1
            }
        }
    }

    private func invert(columns: Range<Int>, rows: Range<Int>, of frame: PixelBuffer) {
        frame.withPixels { pixels in
            for y in rows { for x in columns { pixels[y * frame.stride + x] ^= 0x00FF_FFFF } }
        }
    }

    private func write(_ pixel: UInt32, columns: Range<Int>, rows: Range<Int>, into frame: PixelBuffer) {
        frame.withPixels { pixels in
            for y in rows { for x in columns { pixels[y * frame.stride + x] = pixel } }
        }
    }

    /// A row asked to hold more spans than it has room for writes the rest into the band.
    func testARowWithNoRoomLeftWritesIntoTheBand() {
        let spans = ConstantSpans(rows: 1, linePixels: 16, phase: 0)
        let band = PixelBuffer(width: 16 * 40, height: 1)
        spans.begin(window: 0..<1, of: band)
        for k in 0..<20 { spans.fill(columns: 32 * k..<32 * k + 16, rows: 0..<1, pixel: 0xFF00_0000 | UInt32(k + 1)) }
        XCTAssertEqual(spans.spans(ofRow: 0).count, ConstantSpans.perRow)
        XCTAssertEqual(band.pixel(x: 32 * 19, y: 0), 20, "the twentieth fill is in the band")
        XCTAssertEqual(band.pixel(x: 0, y: 0), 0, "the first is a span")
        spans.materializeAll()
        for k in 0..<20 { XCTAssertEqual(band.pixel(x: 32 * k + 15, y: 0), UInt32(k + 1)) }
        XCTAssertTrue(spans.isEmpty)
    }
}
