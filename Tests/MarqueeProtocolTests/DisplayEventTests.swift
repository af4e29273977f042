import MarqueeCore
import MarqueeProtocol
import XCTest

/// The `display` event, in the exact form the spec gives.
final class DisplayEventTests: XCTestCase {
    func testConnectedWithItsModeAndDisconnectedWithout() {
        var writer = JSONWriter()
        Messages.display(connector: "HDMI-A-1", state: "connected", mode: "1920x1080@60", into: &writer)
        XCTAssertEqual(
            writer.string, #"{"event":"display","connector":"HDMI-A-1","state":"connected","mode":"1920x1080@60"}"#)
        writer.reset()
        Messages.display(connector: "HDMI-A-1", state: "disconnected", mode: nil, into: &writer)
        XCTAssertEqual(writer.string, #"{"event":"display","connector":"HDMI-A-1","state":"disconnected"}"#)
    }
}
