import Glibc
import MarqueeRuntime
import XCTest

/// `marquee send`'s socket when `--socket` is not given: `$MARQUEE_SOCKET`, and the deployment's
/// path when it is unset or set but empty (a script that blanks it means "the default", not "").
final class SendSocketTests: XCTestCase {
    override func tearDown() { unsetenv("MARQUEE_SOCKET") }

    func testAnEmptyMarqueeSocketMeansTheDefaultPath() {
        unsetenv("MARQUEE_SOCKET")
        XCTAssertEqual(ControlClient.defaultSocketPath, "/run/marquee/control.sock")
        setenv("MARQUEE_SOCKET", "", 1)
        XCTAssertEqual(ControlClient.defaultSocketPath, "/run/marquee/control.sock")
        setenv("MARQUEE_SOCKET", "/tmp/kiosk.sock", 1)
        XCTAssertEqual(ControlClient.defaultSocketPath, "/tmp/kiosk.sock")
    }
}
