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

    func testModeRequests() {
        XCTAssertEqual(ModeRequest(parsing: "1920x1080"), ModeRequest(width: 1920, height: 1080))
        XCTAssertEqual(ModeRequest(parsing: "800x480@59.94"), ModeRequest(width: 800, height: 480, refresh: 59.94))
        for bad in ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "0x10", "1920x1080@60@60", "axb"] {
            XCTAssertNil(ModeRequest(parsing: bad), bad)
        }
        XCTAssertEqual(ModeRequest(width: 800, height: 480, refresh: 60).description, "800x480@60")
    }
}
