import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Which rows each DRM scan-out buffer is sent, from the renderer's rows alone (no hash), and the
/// damage clip each commit gives the kernel, for every rotation.
final class ScanoutRowsTests: XCTestCase {
    func testEachBufferGetsEveryRowWrittenSinceItLastReceivedTheFrame() {
        var rows = ScanoutRows(rows: 100, buffers: 2)
        XCTAssertEqual(rows.lacking(inBuffer: 0), 0..<100, "a buffer never written lacks everything")
        XCTAssertEqual(rows.lacking(inBuffer: 1), 0..<100)
        // Frame 1 into buffer 1, which then holds it whole.
        rows.add(0..<100)
        rows.written(buffer: 1)
        XCTAssertEqual(rows.lacking(inBuffer: 1), 0..<0)
        // Frame 2 changes rows 10..<20, into buffer 0: it still lacks frame 1 entirely.
        rows.add(10..<20)
        XCTAssertEqual(rows.lacking(inBuffer: 0), 0..<100)
        rows.written(buffer: 0)
        // Frame 3 changes rows 50..<60, into buffer 1, which lacks frame 2's rows too.
        rows.add(50..<60)
        XCTAssertEqual(rows.lacking(inBuffer: 1), 10..<60)
        rows.written(buffer: 1)
        // Frame 4 changes nothing: buffer 0 lacks frame 3's rows only.
        rows.add(0..<0)
        XCTAssertEqual(rows.lacking(inBuffer: 0), 50..<60)
        rows.written(buffer: 0)
        XCTAssertEqual(rows.lacking(inBuffer: 0), 0..<0)
        XCTAssertEqual(rows.lacking(inBuffer: 1), 0..<0)
        rows.add(-5..<3)
        XCTAssertEqual(rows.lacking(inBuffer: 1), 0..<3, "rows outside the frame are dropped")
        rows.forget(buffer: 0)
        XCTAssertEqual(rows.lacking(inBuffer: 0), 0..<100)
    }

    /// Each buffer, sent exactly the rows it lacks, ends up equal to the frame: two buffers over
    /// a run of random frames each changing a random band (and some nothing).
    func testBuffersSentOnlyWhatTheyLackHoldTheFrame() {
        let width = 9, height = 40
        let frame = PixelBuffer(width: width, height: height)
        let buffers = [PixelBuffer(width: width, height: height), PixelBuffer(width: width, height: height)]
        for buffer in buffers { buffer.withPixels { $0.update(repeating: 0xDEAD_BEEF) } }
        var rows = ScanoutRows(rows: height, buffers: 2)
        var random = SplitMix64(seed: 11)
        var next = 0
        for step in 0..<200 {
            let top = Int(random.next() % UInt64(height))
            let count = step % 7 == 0 ? 0 : Int(random.next() % UInt64(height - top + 1))
            let value = UInt32(truncatingIfNeeded: random.next())
            frame.withPixels { pixels in
                for y in top..<(top + count) { for x in 0..<width { pixels[y * width + x] = value &+ UInt32(x) } }
            }
            rows.add(top..<(top + count))
            FrameCopier.copy(frame, rows: rows.lacking(inBuffer: next), to: buffers[next].surface, rotation: .none)
            rows.written(buffer: next)
            var differing = 0
            buffers[next].withPixels { held in
                frame.withPixels { for i in held.indices where held[i] != $0[i] { differing += 1 } }
            }
            XCTAssertEqual(differing, 0, "step \(step): buffer \(next) differs from the frame")
            next = 1 - next
        }
    }

    /// Frame rows become panel rows unturned and turned half, panel columns turned a quarter:
    /// checked against where FrameCopier puts the rows' pixels.
    func testTheDamageClipCoversExactlyThePanelPixelsOfTheChangedRows() {
        let frame = PixelSize(width: 7, height: 11)
        for rotation in Rotation.allCases {
            for rows in [0..<1, 3..<8, 10..<11, 0..<11] {
                let clip = DamageClip(frameRows: rows, frame: frame, rotation: rotation)!
                // Mark the rows in a frame and turn it as the scan-out does.
                let marked = PixelBuffer(width: frame.width, height: frame.height)
                marked.withPixels { pixels in
                    for y in rows { for x in 0..<frame.width { pixels[y * frame.width + x] = 1 } }
                }
                let panel = rotation.panelSize(ofLogical: frame)
                let turned = PixelBuffer(width: panel.width, height: panel.height)
                FrameCopier.copy(marked, rows: 0..<frame.height, to: turned.surface, rotation: rotation)
                for y in 0..<panel.height {
                    for x in 0..<panel.width {
                        let inside = x >= clip.x1 && x < clip.x2 && y >= clip.y1 && y < clip.y2
                        XCTAssertEqual(
                            inside, turned.pixel(x: x, y: y) == 1, "\(rotation) rows \(rows) at (\(x), \(y))")
                    }
                }
            }
            XCTAssertNil(DamageClip(frameRows: 4..<4, frame: frame, rotation: rotation), "no rows, no clip")
            XCTAssertEqual(
                DamageClip(frameRows: -3..<40, frame: frame, rotation: rotation),
                DamageClip(frameRows: 0..<11, frame: frame, rotation: rotation), "clamped to the frame")
        }
    }
}
