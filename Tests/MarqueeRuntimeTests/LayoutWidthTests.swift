import Glibc
import XCTest

/// A grid whose columns, spacing and insets take the whole screen width leaves its cards 0 px
/// wide: nothing is drawn, so the log says why, once for each layout and width, not every frame.
final class LayoutWidthTests: XCTestCase, SpawnsMarquee {
    func testALayoutLeavingCardsNoWidthIsLoggedOncePerLayout() throws {
        let folder = SessionHarness.scratch + "/layout-width-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o755)
        let log = folder + "/stderr.log"
        func deck(columns: Int) -> String {
            let cards = (0..<10).map { #"{"id": "c\#($0)", "title": "t"}"# }.joined(separator: ", ")
            return #"{"layout": {"type": "grid", "columns": \#(columns)}, "sections": [{"cards": [\#(cards)]}]}"#
        }
        SessionHarness.writeFile(folder + "/narrow.json", deck(columns: 64))
        SessionHarness.writeFile(folder + "/fits.json", deck(columns: 2))
        let running = try start(
            ["run", "--backend", "software", "--size", "1280x720", "--deck", folder + "/narrow.json"], stderrPath: log)
        send(
            running,
            """
            scroll-by 40
            wait idle
            scroll-by -40
            wait idle
            apply \(folder)/fits.json
            wait idle
            apply \(folder)/narrow.json
            wait idle
            scroll-by 40
            wait idle

            """)
        close(running.input)
        let output = read(running, until: #""seq":10"#, seconds: 30)
        close(running.output)
        XCTAssertEqual(exitStatus(running), 0)
        XCTAssertEqual(output.components(separatedBy: #""ok":true"#).count - 1, 10, output)
        let lines = SessionHarness.readFile(log).split(separator: "\n").filter { $0.contains("no width") }
        XCTAssertEqual(
            lines,
            Array(
                repeating:
                    "marquee: error: the layout leaves cards no width: 64 columns with spacing 24 and insets 40+40 need at least 1656 px, the screen gives 1280; no card is drawn (use fewer columns or smaller spacing or insets)",
                count: 2), "once at start, once when apply brings the layout back; never for the grid that fits")
    }
}
