import MarqueeCore
import XCTest

@testable import MarqueeDisplay

final class SoftwareRotationTests: XCTestCase {
    func testTheSnapshotIsThePanelAndFramesAreRenderedTurned() throws {
        let backend = SoftwareBackend(
            size: PixelSize(width: 480, height: 320), refreshRate: 60, realtime: false, rotation: .quarter)
        XCTAssertEqual(backend.size, PixelSize(width: 320, height: 480), "frames are laid out for the portrait view")
        let frame = backend.frameBuffer()
        frame.withPixels { $0[0] = 0xFF12_3456 }  // the picture's top-left corner
        try backend.present(frame, at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60))
        let shown = try XCTUnwrap(backend.presentedFrame())
        XCTAssertEqual(shown.size, PixelSize(width: 480, height: 320))
        XCTAssertEqual(shown.pixel(x: 479, y: 0), 0x12_3456, "turned clockwise: top-left lands top-right")
    }

    /// Turned, the panel keeps the last frame: only the rows the renderer changed are turned
    /// again, and the panel still shows the whole new frame.
    func testOnlyChangedRowsAreTurnedAgain() throws {
        let backend = SoftwareBackend(
            size: PixelSize(width: 6, height: 4), refreshRate: 60, realtime: false, rotation: .threeQuarters)
        let frame = backend.frameBuffer()
        frame.withPixels { for index in $0.indices { $0[index] = 0xFF00_0000 | UInt32(index) } }
        try backend.present(frame, changedRows: RowBands(), at: FrameTime(timestamp: 0, targetTimestamp: 1.0 / 60))
        // The first frame is turned whole: panel (5, 0) shows frame pixel (3, 5).
        XCTAssertEqual(backend.presentedFrame()?.pixel(x: 5, y: 0), 23)
        frame.withPixels { $0[2 * frame.stride + 1] = 0xFF77_7777 }
        try backend.present(frame, changedRows: [2..<3], at: FrameTime(timestamp: 1.0 / 60, targetTimestamp: 2.0 / 60))
        let shown = try XCTUnwrap(backend.presentedFrame())
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                // Counter-clockwise: frame (x, y) lands on panel (y, width - 1 - x).
                XCTAssertEqual(shown.pixel(x: y, y: frame.width - 1 - x), frame.pixel(x: x, y: y), "(\(x), \(y))")
            }
        }
    }

    func testModeRequests() {
        XCTAssertEqual(ModeRequest(parsing: "1920x1080"), ModeRequest(width: 1920, height: 1080))
        XCTAssertEqual(ModeRequest(parsing: "800x480@59.94"), ModeRequest(width: 800, height: 480, refresh: 59.94))
        for bad in ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "0x10", "1920x1080@60@60", "axb"] {
            XCTAssertNil(ModeRequest(parsing: bad), bad)
        }
        XCTAssertEqual(ModeRequest(width: 800, height: 480, refresh: 60).description, "800x480@60")
    }
}
