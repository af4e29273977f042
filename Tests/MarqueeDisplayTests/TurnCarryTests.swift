import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Quarter turns into 16-bit rows that start on 16 bytes but not on cache lines (fbdev's RGB565
/// rows at 1080 pixels are 2160 bytes) hold part of each band's lines back for the next band
/// (`TurnCarry`): whatever the calls, once the carry is finished the buffer must hold to the byte
/// what copies with no carry write, and nothing outside the rows copied.
final class TurnCarryTests: XCTestCase {
    /// Wider than two tiles with a few columns past the last whole four, taller than five bands.
    private let width = 2 * QuarterTurn.tileColumns + 45
    private let height = 5 * QuarterTurn.bandRows + 43

    func testOneCallWithACarryWritesWhatACallWithoutWrites() {
        check { copy in copy(5..<(height - 6)) }
    }

    /// As the band renderer calls it: one window at a time, on the grid DRM uses.
    func testWindowByWindowWithACarryWritesWhatOneCallWithoutWrites() {
        check { copy in
            for window in windows(rows: 32, rotation: .quarter) { copy(window) }
        }
        check { copy in
            for window in windows(rows: 32, rotation: .threeQuarters) { copy(window) }
        }
    }

    /// Damage leaves windows out: the run before a gap is finished, the one after starts afresh,
    /// and the rows skipped are not written.
    func testWindowsWithGapsWriteOnlyTheirRows() {
        for skipped in [1, 2, 4] {
            check { copy in
                for (index, window) in windows(rows: 32, rotation: .quarter).enumerated() where index != skipped {
                    copy(window)
                }
            }
        }
        // Windows out of order and one cut short: each call that does not go on from the last
        // finishes what it held.
        check { copy in
            copy(100..<132)
            copy(24..<56)
            copy(56..<70)
            copy(132..<164)
        }
    }

    /// A copy into the same buffer from the row a held run ended does not go on from it when its
    /// lines are elsewhere in the panel rows: clockwise a line's place hangs on the frame's height,
    /// so a frame 32 rows taller puts its first line 64 bytes past where the held run's next one
    /// would be (found by review: the held lines were written into rows the copy did not ask for,
    /// 1,532 bytes wrong).
    func testAFrameOfAnotherHeightDoesNotGoOnFromTheHeldLines() {
        let width = 64
        let bytesPerRow = 2 * 232 + 16 + 80  // room for both heights' rows, off cache lines
        let short = PixelBuffer(width: width, height: 200)
        let tall = PixelBuffer(width: width, height: 232)
        var random = SplitMix64(seed: 5)
        for frame in [short, tall] {
            frame.withPixels { pixels in
                for index in 0..<(frame.stride * frame.height) {
                    pixels[index] = UInt32(truncatingIfNeeded: random.next())
                }
            }
        }
        let count = bytesPerRow * width
        func written(carry: TurnCarry?) -> [UInt8] {
            let base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
            defer { base.deallocate() }
            base.initializeMemory(as: UInt8.self, repeating: 0xAB, count: count)
            let first = ScanoutSurface(base: base, bytesPerRow: bytesPerRow, width: 200, height: width, format: .rgb565)
            let second = ScanoutSurface(
                base: base, bytesPerRow: bytesPerRow, width: 232, height: width, format: .rgb565)
            FrameCopier.copy(short, rows: 8..<72, to: first, rotation: .quarter, carry: carry)
            FrameCopier.copy(tall, rows: 72..<104, to: second, rotation: .quarter, carry: carry)
            carry?.finish()
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }
        let wrong = zip(written(carry: nil), written(carry: TurnCarry())).filter { $0 != $1 }.count
        XCTAssertEqual(wrong, 0, "bytes that differ from the same copies without a carry")
    }

    /// The windows of `rows` rows that the band renderer copies, top down.
    private func windows(rows: Int, rotation: Rotation) -> [Range<Int>] {
        let phase = FrameCopier.bandPhase(frameHeight: height, rows: rows, rotation: rotation)
        var result: [Range<Int>] = []
        var top = 0
        var bottom = rows - phase
        while top < height {
            result.append(top..<min(bottom, height))
            top = min(bottom, height)
            bottom += rows
        }
        return result
    }

    /// Runs `calls` (each call of its `copy` a `FrameCopier.copy` of those frame rows) with one
    /// carry, finished at the end, and the same calls with none, into buffers of every 16-bit
    /// format and quarter turn, with rows of 16-byte multiples that are not 64-byte ones; the two
    /// must match to the byte.
    private func check(file: StaticString = #filePath, line: UInt = #line, _ calls: ((Range<Int>) -> Void) -> Void) {
        let frame = PixelBuffer(width: width, height: height)
        var random = SplitMix64(seed: 17)
        frame.withPixels { pixels in
            for index in 0..<(frame.stride * height) { pixels[index] = UInt32(truncatingIfNeeded: random.next()) }
        }
        for format in [ScanoutFormat.rgb565, .bgr565] {
            for rotation in [Rotation.quarter, .threeQuarters] {
                let panel = rotation.panelSize(ofLogical: frame.size)
                var bytesPerRow = (panel.width * 2 + 15) / 16 * 16
                if bytesPerRow % 64 == 0 { bytesPerRow += 16 }
                let count = bytesPerRow * panel.height
                func written(carry: TurnCarry?) -> [UInt8] {
                    let base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 64)
                    defer { base.deallocate() }
                    base.initializeMemory(as: UInt8.self, repeating: 0xAB, count: count)
                    let surface = ScanoutSurface(
                        base: base, bytesPerRow: bytesPerRow, width: panel.width, height: panel.height, format: format)
                    calls { rows in FrameCopier.copy(frame, rows: rows, to: surface, rotation: rotation, carry: carry) }
                    carry?.finish()
                    return Array(UnsafeRawBufferPointer(start: base, count: count))
                }
                let expected = written(carry: nil)
                let carried = written(carry: TurnCarry())
                let wrong = zip(expected, carried).filter { $0 != $1 }.count
                XCTAssertEqual(
                    wrong, 0, "\(format) rotate \(rotation.rawValue): bytes that differ", file: file, line: line)
            }
        }
    }
}
