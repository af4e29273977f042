import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Which rows each DRM scan-out buffer is sent, from the renderer's rows alone (no hash), and the
/// damage clip each commit gives the kernel, for every rotation.
final class ScanoutRowsTests: XCTestCase {
    func testEachBufferGetsEveryRowWrittenSinceItLastReceivedTheFrame() {
        var rows = ScanoutRows(rows: 100, buffers: 2)
        XCTAssertEqual(rows.lacking(inBuffer: 0), [0..<100], "a buffer never written lacks everything")
        XCTAssertEqual(rows.lacking(inBuffer: 1), [0..<100])
        // Frame 1 into buffer 1, which then holds it whole.
        rows.add([0..<100])
        rows.written(buffer: 1)
        XCTAssertEqual(rows.lacking(inBuffer: 1), [])
        // Frame 2 changes rows 10..<20 and 80..<90, into buffer 0: it still lacks frame 1 entirely.
        rows.add([10..<20, 80..<90])
        XCTAssertEqual(rows.lacking(inBuffer: 0), [0..<100])
        rows.written(buffer: 0)
        // Frame 3 changes rows 50..<60, into buffer 1, which lacks frame 2's two bands too: three
        // bands, not the 80 rows from 10 to 90.
        rows.add([50..<60])
        XCTAssertEqual(rows.lacking(inBuffer: 1), [10..<20, 50..<60, 80..<90])
        rows.written(buffer: 1)
        // Frame 4 changes nothing: buffer 0 lacks frame 3's rows only.
        rows.add([])
        XCTAssertEqual(rows.lacking(inBuffer: 0), [50..<60])
        rows.written(buffer: 0)
        XCTAssertEqual(rows.lacking(inBuffer: 0), [])
        XCTAssertEqual(rows.lacking(inBuffer: 1), [])
        rows.add([-5..<3, 98..<120])
        XCTAssertEqual(rows.lacking(inBuffer: 1), [0..<3, 98..<100], "rows outside the frame are dropped")
        rows.forget(buffer: 0)
        XCTAssertEqual(rows.lacking(inBuffer: 0), [0..<100])
        XCTAssertEqual(rows.lacking(inBuffer: 1), [0..<3, 98..<100], "forgetting one buffer leaves the other")
    }

    /// A buffer written frames ago lacks the union of their bands; past the cap the two closest
    /// are joined (the rows between copied too), and nothing it lacks is dropped.
    func testABufferLackingManyFramesBandsKeepsAFewCoalesced() {
        var rows = ScanoutRows(rows: 1000, buffers: 2)
        rows.written(buffer: 0)
        rows.written(buffer: 1)
        rows.add([0..<10, 900..<910])
        rows.written(buffer: 0)
        rows.add([300..<310, 600..<610])
        XCTAssertEqual(rows.lacking(inBuffer: 0), [300..<310, 600..<610])
        XCTAssertEqual(rows.lacking(inBuffer: 1), [0..<10, 300..<310, 600..<610, 900..<910])
        rows.add([320..<330])
        XCTAssertEqual(
            rows.lacking(inBuffer: 1), [0..<10, 300..<330, 600..<610, 900..<910],
            "a fifth band joins the closest pair")
        XCTAssertEqual(rows.lacking(inBuffer: 0), [300..<310, 320..<330, 600..<610])
    }

    /// Each buffer, sent exactly the bands it lacks, ends up equal to the frame: two buffers over
    /// a run of random frames each changing a few random bands (and some nothing).
    func testBuffersSentOnlyWhatTheyLackHoldTheFrame() {
        let width = 9, height = 40
        let frame = PixelBuffer(width: width, height: height)
        let buffers = [PixelBuffer(width: width, height: height), PixelBuffer(width: width, height: height)]
        for buffer in buffers { buffer.withPixels { $0.update(repeating: 0xDEAD_BEEF) } }
        var rows = ScanoutRows(rows: height, buffers: 2)
        var random = SplitMix64(seed: 11)
        var next = 0
        for step in 0..<200 {
            // Up to six bands a frame (more than a buffer keeps: some are joined), some frames none.
            var changed = RowBands()
            for _ in 0..<(step % 7) {
                let top = Int(random.next() % UInt64(height))
                let count = Int(random.next() % UInt64(min(6, height - top) + 1))
                let value = UInt32(truncatingIfNeeded: random.next())
                frame.withPixels { pixels in
                    for y in top..<(top + count) { for x in 0..<width { pixels[y * width + x] = value &+ UInt32(x) } }
                }
                changed.insert(top..<(top + count))
            }
            rows.add(changed)
            for band in rows.lacking(inBuffer: next) {
                FrameCopier.copy(frame, rows: band, to: buffers[next].surface, rotation: .none)
            }
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

    /// Several bands become one clip each, in panel order (reversed where the turn mirrors the
    /// frame's rows), together exactly the panel pixels of those rows and none between.
    func testDamageClipsOfSeveralBandsCoverExactlyTheirPanelPixels() {
        let frame = PixelSize(width: 7, height: 23)
        let bands: RowBands = [1..<3, 8..<12, 20..<23]
        for rotation in Rotation.allCases {
            let clips = DamageClips(frameRows: bands, frame: frame, rotation: rotation)
            XCTAssertEqual(clips.count, 3, "\(rotation)")
            for index in clips.indices.dropFirst() {
                let (before, clip) = (clips[index - 1], clips[index])
                XCTAssertTrue(
                    rotation.swapsAxes ? before.x2 < clip.x1 : before.y2 < clip.y1, "\(rotation): \(before), \(clip)")
            }
            let marked = PixelBuffer(width: frame.width, height: frame.height)
            marked.withPixels { pixels in
                for band in bands { for y in band { for x in 0..<frame.width { pixels[y * frame.width + x] = 1 } } }
            }
            let panel = rotation.panelSize(ofLogical: frame)
            let turned = PixelBuffer(width: panel.width, height: panel.height)
            FrameCopier.copy(marked, rows: 0..<frame.height, to: turned.surface, rotation: rotation)
            for y in 0..<panel.height {
                for x in 0..<panel.width {
                    let inside = clips.contains { x >= $0.x1 && x < $0.x2 && y >= $0.y1 && y < $0.y2 }
                    XCTAssertEqual(inside, turned.pixel(x: x, y: y) == 1, "\(rotation) at (\(x), \(y))")
                }
            }
        }
        XCTAssertTrue(DamageClips(frameRows: [], frame: frame, rotation: .quarter).isEmpty, "no rows, no clips")
    }
}
