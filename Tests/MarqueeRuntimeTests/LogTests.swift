import XCTest

@testable import MarqueeRuntime

/// A log line is one line whatever it quotes: a picture's path holding a line feed printed a
/// second line that looked like Marquee's own ("marquee: mqtt: connected to evil.example.org").
final class LogTests: XCTestCase {
    func testControlCharactersInAMessageAreEscaped() {
        XCTAssertEqual(
            Log.oneLine("image x.png\nmarquee: mqtt: connected\r\t\u{1B}[31m\u{85}"),
            "image x.png\\nmarquee: mqtt: connected\\r\\t\\u001b[31m\\u0085")
        // Anything else is left as it is, however long.
        let plain = "image /srv/board/Café °C " + String(repeating: "é", count: 500)
        XCTAssertEqual(Log.oneLine(plain), plain)
    }
}
