import XCTest

@testable import MarqueeRuntime

/// Where a further output's frames are traced (`--trace` given with several `--connector`).
final class FurtherOutputTests: XCTestCase {
    func testEachFurtherOutputTracesBesideTheTraceFile() {
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/t.jsonl", output: "HDMI-A-2"), "/tmp/t.HDMI-A-2.jsonl")
        XCTAssertEqual(FurtherOutput.tracePath("t.jsonl", output: "DSI-1"), "t.DSI-1.jsonl")
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/trace", output: "HDMI-A-2"), "/tmp/trace.HDMI-A-2")
        XCTAssertEqual(
            FurtherOutput.tracePath("/tmp/run.d/trace", output: "HDMI-A-2"), "/tmp/run.d/trace.HDMI-A-2",
            "a dot in a folder's name is not the file's extension")
        XCTAssertEqual(FurtherOutput.tracePath("/tmp/.trace", output: "HDMI-A-2"), "/tmp/.trace.HDMI-A-2")
    }
}
