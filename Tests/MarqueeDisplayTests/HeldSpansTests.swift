import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// The copies that skip the fills a scan-out buffer already holds (`HeldSpans`): whatever the
/// windows, tables and other writes before them, the buffer must end up with the bytes a copy
/// that writes everything gives.
final class HeldSpansTests: XCTestCase {
    /// The parts `missing` gives are exactly the pixels of the table's spans that the row does not
    /// hold with the same pixel, pixel for pixel.
    func testMissingPartsAreTheSpansLessWhatTheRowHolds() {
        var generator = SystemRandomNumberGenerator()
        let width = 160
        let frame = PixelBuffer(width: width, height: 4)
        let colours: [UInt32] = [0xFF00_0001, 0xFF00_0002, 0xFF00_0003]
        for _ in 0..<500 {
            let held = HeldSpans(height: 4)
            held.use(width: width, rotation: .none)
            let before = randomTable(width: width, frame: frame, colours: colours, using: &generator)
            held.record(rows: 0..<4, from: before)
            let was = Array(before.spans(ofRow: 2))
            let now = randomTable(width: width, frame: frame, colours: colours, using: &generator)
            let spans = now.spans(ofRow: 2)
            held.beginCopy()
            let parts = Array(held.missing(spans, row: 2))
            XCTAssertEqual(parts, parts.sorted { $0.x0 < $1.x0 }, "parts out of order")
            for x in 0..<width {
                let wanted = spans.first { $0.x0 <= x && x < $0.x1 }
                let holds = was.first { $0.x0 <= x && x < $0.x1 }
                let expected = wanted.flatMap { holds?.pixel == $0.pixel ? nil : $0.pixel }
                let written = parts.filter { $0.x0 <= x && x < $0.x1 }
                XCTAssertLessThanOrEqual(written.count, 1, "column \(x) written twice")
                XCTAssertEqual(written.first?.pixel, expected, "column \(x): held \(was), now \(Array(spans))")
            }
        }
    }

    /// Frames of random windows, fills and band pixels copied into one buffer with its record and
    /// into another in full: the two stay byte for byte the same, through windows that cut the
    /// record's runs anywhere, copies without a table and a buffer written some other way.
    func testCopiesThatSkipHeldFillsWriteWhatAFullCopyWrites() {
        var generator = SystemRandomNumberGenerator()
        for width in [64, 100, 1916] {
            for rotation in [Rotation.none, .half] {
                let height = 48
                let size = PixelSize(width: width, height: height)
                let skipping = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
                let full = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
                let held = HeldSpans(height: height)
                let band = PixelBuffer(width: width, height: height)
                // Few colours, so that what is held often matches what is wanted.
                let colours: [UInt32] = [0xFF10_2030, 0xFF40_5060, 0xFF70_8090]
                var skipped = false
                // One table for every window, as the DRM backend keeps it.
                var table: ConstantSpans? = nil
                let frames = width > 100 ? 16 : 200
                for frameNumber in 0..<frames {
                    if frameNumber == frames / 2 {
                        // Written some other way: the record is forgotten.
                        skipping.surfaces[0].base.initializeMemory(
                            as: UInt8.self, repeating: 0x5A, count: skipping.bytes(of: 0).count)
                        full.surfaces[0].base.initializeMemory(
                            as: UInt8.self, repeating: 0x5A, count: full.bytes(of: 0).count)
                        held.forgetAll()
                    }
                    // Most frames windows down the buffer; some one window only (the rest of
                    // the frame unchanged), often where one was before.
                    let oneWindow = Int.random(in: 0..<3, using: &generator) == 0
                    var top =
                        oneWindow
                        ? 8 * Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<8, using: &generator)
                    while top < height {
                        let rows = top..<min(height, top + (oneWindow ? 8 : Int.random(in: 1...20, using: &generator)))
                        top = oneWindow ? height : rows.upperBound + Int.random(in: 0...3, using: &generator)
                        band.withPixels { pixels in
                            for index in pixels.indices {
                                pixels[index] = UInt32.random(in: 0...UInt32.max, using: &generator)
                            }
                        }
                        guard
                            let spans = FrameCopier.spans(
                                keeping: table, bandRows: height, surface: skipping.surfaces[0], frameWidth: width,
                                rotation: rotation)
                        else { return XCTFail("\(width) wide, turned \(rotation.rawValue): no spans") }
                        table = spans
                        spans.begin(window: rows, of: band)
                        for _ in 0..<Int.random(in: 0...6, using: &generator) {
                            let x0 = Int.random(in: 0..<width, using: &generator)
                            let y0 = Int.random(in: rows, using: &generator)
                            spans.fill(
                                columns: x0..<Int.random(in: x0...width, using: &generator),
                                rows: y0..<Int.random(in: y0...rows.upperBound, using: &generator),
                                pixel: colours.randomElement(using: &generator)!)
                        }
                        if Int.random(in: 0..<8, using: &generator) == 0 {
                            // A window copied without its table (the band with the fills in it).
                            spans.materializeAll()
                            FrameCopier.copy(band, rows: rows, to: skipping.surfaces[0], rotation: rotation, held: held)
                        } else {
                            // Whether the record holds any of the fills (read without `missing`,
                            // whose parts the copy must work out afresh).
                            for y in rows {
                                for span in spans.spans(ofRow: y) {
                                    for have in held.held(row: y)
                                    where have.pixel == span.pixel && have.x0 < span.x1 && span.x0 < have.x1 {
                                        skipped = true
                                    }
                                }
                            }
                            FrameCopier.copy(
                                band, rows: rows, to: skipping.surfaces[0], rotation: rotation, spans: spans,
                                held: held)
                            spans.materializeAll()
                        }
                        FrameCopier.copy(band, rows: rows, to: full.surfaces[0], rotation: rotation)
                        let got = skipping.bytes(of: 0)
                        let wanted = full.bytes(of: 0)
                        if got != wanted, let byte = got.indices.first(where: { got[$0] != wanted[$0] }) {
                            let row = byte / (got.count / height)
                            return XCTFail(
                                "\(width) wide, turned \(rotation.rawValue), frame \(frameNumber), rows \(rows): "
                                    + "byte \(byte) (panel row \(row)) differs")
                        }
                    }
                }
                XCTAssertTrue(skipped, "\(width) wide: the copies never found a fill held")
            }
        }
    }

    /// A window that cuts a run of rows in the record leaves the rows below it their spans, even
    /// when the run's first rows are written over later: a fill the buffer does not hold there
    /// is still written.
    func testAWindowThatCutsARunLeavesTheRestOfItsRowsTheirSpans() {
        // All eight rows one fill (one run), then rows 2-3, then rows 0-1, then rows 4-7 in the
        // colour rows 0-1 took.
        assertEightRowCopies(
            [(0..<8, 0xFF11_1111), (2..<4, 0xFF22_2222), (0..<2, 0xFF33_3333), (4..<8, 0xFF33_3333)],
            copying: { $0 })
    }

    /// Rows copied with a table but outside its window come from the band: they are neither
    /// taken for the window's first run (whose spans share their storage) nor recorded as
    /// holding its spans.
    func testRowsOutsideTheWindowAreNotTheFirstRun() {
        // Rows 0-7 one fill; then rows 0-7 copied with a table whose window is rows 4-7, in
        // another colour; then the first colour again over rows 0-3 only, rows 4-7 outside.
        assertEightRowCopies(
            [(0..<8, 0xFF11_1111), (4..<8, 0xFF22_2222), (0..<4, 0xFF11_1111)], copying: { _ in 0..<8 })
    }

    /// A record made for one turn or width is not used for another.
    func testARecordForAnotherTurnIsForgotten() {
        let width = 64
        let band = PixelBuffer(width: width, height: 4)
        let held = HeldSpans(height: 4)
        let spans = ConstantSpans(rows: 4, linePixels: 16, phase: 0)
        spans.begin(window: 0..<4, of: band)
        spans.fill(columns: 0..<width, rows: 0..<4, pixel: 0xFF00_00FF)
        held.use(width: width, rotation: .none)
        held.record(rows: 0..<4, from: spans)
        XCTAssertEqual(held.held(row: 1).count, 1)
        held.use(width: width, rotation: .half)
        XCTAssertTrue(held.held(row: 1).isEmpty)
        held.use(width: width, rotation: .half)
        held.record(rows: 0..<4, from: spans)
        held.use(width: 80, rotation: .half)
        XCTAssertTrue(held.held(row: 1).isEmpty)
    }

    /// Each step's window filled whole in its colour over a band of another, the rows
    /// `copying(window)` copied into a 64x8 buffer with its record and into another in full; the
    /// two must be byte for byte the same after every step, unturned and turned by half.
    private func assertEightRowCopies(
        _ steps: [(window: Range<Int>, pixel: UInt32)], copying: (Range<Int>) -> Range<Int>,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let width = 64
        for rotation in [Rotation.none, .half] {
            let size = PixelSize(width: width, height: 8)
            let skipping = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
            let full = ScanoutMemory(frameSize: size, rotation: rotation, format: .xrgb8888, buffers: 1)
            let held = HeldSpans(height: 8)
            let band = PixelBuffer(width: width, height: 8)
            for (window, pixel) in steps {
                band.withPixels { $0.update(repeating: 0xFF99_9999) }
                let spans = ConstantSpans(rows: 8, linePixels: 16, phase: 0)
                spans.begin(window: window, of: band)
                spans.fill(columns: 0..<width, rows: window, pixel: pixel)
                let rows = copying(window)
                FrameCopier.copy(
                    band, rows: rows, to: skipping.surfaces[0], rotation: rotation, spans: spans, held: held)
                spans.materializeAll()
                FrameCopier.copy(band, rows: rows, to: full.surfaces[0], rotation: rotation)
                XCTAssertEqual(
                    skipping.bytes(of: 0), full.bytes(of: 0), "turned \(rotation.rawValue), window \(window)",
                    file: file, line: line)
            }
        }
    }

    private func randomTable(
        width: Int, frame: PixelBuffer, colours: [UInt32], using generator: inout SystemRandomNumberGenerator
    ) -> ConstantSpans {
        let table = ConstantSpans(rows: 4, linePixels: 16, phase: 0)
        table.begin(window: 0..<4, of: frame)
        for _ in 0..<Int.random(in: 0...7, using: &generator) {
            let x0 = Int.random(in: 0..<width, using: &generator)
            table.fill(
                columns: x0..<Int.random(in: x0...width, using: &generator), rows: 0..<4,
                pixel: colours.randomElement(using: &generator)!)
        }
        return table
    }
}
