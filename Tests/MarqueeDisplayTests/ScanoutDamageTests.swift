import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Which rows each scan-out buffer is sent: everything at first, then only what differs from the
/// frame that buffer holds (two buffers hold different frames).
final class ScanoutDamageTests: XCTestCase {
    func testEachBufferIsSentTheRowsItLacks() {
        let frame = PixelBuffer(width: 7, height: 6)
        let damage = ScanoutDamage(rows: 6, buffers: 2)
        damage.measure(frame)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [0..<6], "a buffer never written gets every row")
        damage.recordCopy(toBuffer: 0)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [])

        frame.withPixels {
            $0[2 * 7 + 6] = 0xFF12_3456; $0[3 * 7] = 0xFF00_0001; $0[5 * 7 + 3] = 0xFF00_0002
        }
        damage.measure(frame)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [2..<4, 5..<6])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [0..<6])
        damage.recordCopy(toBuffer: 1)

        // Back to the first picture: buffer 0 already holds it, buffer 1 lacks rows 2, 3 and 5.
        frame.withPixels { $0.update(repeating: 0xFF00_0000) }
        damage.measure(frame)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [2..<4, 5..<6])
        damage.forget(buffer: 0)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [0..<6])
    }

    /// Only the rows the renderer says it wrote are hashed again; what a buffer lacks is still
    /// counted against the frame as a whole (rows changed in an earlier frame included).
    func testOnlyTheRowsTheRendererWroteAreHashedAgain() {
        let frame = PixelBuffer(width: 5, height: 8)
        let damage = ScanoutDamage(rows: 8, buffers: 2)
        damage.measure(frame)
        damage.recordCopy(toBuffer: 0)
        damage.recordCopy(toBuffer: 1)
        frame.withPixels {
            $0[1 * 5] = 0xFF00_0001; $0[6 * 5] = 0xFF00_0002
        }
        damage.measure(frame, rows: 0..<3)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [1..<2], "row 6 was not said to change: not hashed")
        damage.recordCopy(toBuffer: 0)
        damage.measure(frame, rows: 5..<7)
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [6..<7])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [1..<2, 6..<7], "buffer 1 still lacks row 1")
        damage.measure(frame, rows: 0..<0)
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [1..<2, 6..<7])
    }

    func testEveryPixelOfARowCounts() {
        // Odd widths leave a last pixel outside the 64-bit words.
        for width in [1, 2, 7, 8, 9, 33] {
            let frame = PixelBuffer(width: width, height: 1)
            let damage = ScanoutDamage(rows: 1, buffers: 1)
            damage.measure(frame)
            damage.recordCopy(toBuffer: 0)
            for x in 0..<width {
                frame.withPixels { $0[x] = 0xFF00_0100 }
                damage.measure(frame)
                XCTAssertEqual(damage.changedRows(inBuffer: 0), [0..<1], "width \(width), pixel \(x)")
                frame.withPixels { $0[x] = 0xFF00_0000 }
            }
        }
    }

    /// fbdev's measure: the renderer's bands hashed when they are at most half the frame (rows of
    /// a band whose pixels did not change are not sent), marked changed unread when more (a
    /// scroll); a buffer that missed a marked frame still gets those rows later.
    func testSmallBandsAreHashedAndLargeOnesMarkedChangedUnread() {
        let frame = PixelBuffer(width: 5, height: 10)
        let damage = ScanoutDamage(rows: 10, buffers: 2)
        damage.measure(frame)
        damage.recordCopy(toBuffer: 0)
        damage.recordCopy(toBuffer: 1)
        // A band of rows 2..<6 whose row 3 alone changed: hashed, only row 3 is sent.
        frame.withPixels { $0[3 * 5] = 0xFF00_0001 }
        damage.measure(frame, bands: [2..<6])
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [3..<4], "a small band is hashed: unchanged rows stay")
        damage.recordCopy(toBuffer: 0)
        // Bands over six of ten rows, pixels unchanged: not read, every row of them sent.
        damage.measure(frame, bands: [0..<3, 5..<8])
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [0..<3, 5..<8], "large bands are marked, not hashed")
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [0..<4, 5..<8], "buffer 1 also lacks row 3")
        damage.recordCopy(toBuffer: 0)
        // Nothing changed since: buffer 0 holds the frame; buffer 1 lacks the marked rows still.
        damage.measure(frame, bands: [])
        XCTAssertEqual(damage.changedRows(inBuffer: 0), [])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [0..<4, 5..<8])
        damage.recordCopy(toBuffer: 1)
        // The same large bands marked again differ from the last mark: each frame's is its own.
        damage.measure(frame, bands: [0..<3, 5..<8])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [0..<3, 5..<8])
        // After a marked frame a small band's rows differ from the marks once, then are hashed.
        damage.recordCopy(toBuffer: 1)
        damage.measure(frame, bands: [1..<3])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [1..<3])
        damage.recordCopy(toBuffer: 1)
        damage.measure(frame, bands: [1..<3])
        XCTAssertEqual(damage.changedRows(inBuffer: 1), [])
    }
}
