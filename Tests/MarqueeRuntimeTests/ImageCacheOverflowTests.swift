import Glibc
import MarqueeCore
import MarqueeRender
import XCTest

/// Pictures on screen that each fit `--image-cache` but together do not, in the real binary: a
/// grid of twelve 282x200 photo cards at 1280x640 (220 KiB each, 2.6 MiB together) with
/// `--image-cache 1`. `wait idle` is answered, one `image-failed` event says how much the screen
/// needs, and the settled screen uses no CPU. Before, the scaled pictures evicted each other and
/// were decoded again for ever: `wait idle` was never answered.
final class ImageCacheOverflowTests: XCTestCase, SpawnsMarquee {
    func testWaitIdleIsAnsweredWhenThePicturesOnScreenNeedMoreThanTheCache() throws {
        let folder = SessionHarness.scratch + "/overflow-\(UInt64.random(in: 0..<UInt64.max))"
        mkdir(folder, 0o755)
        var cards: [String] = []
        for index in 0..<16 {
            let picture = PixelBuffer(width: 400, height: 300)
            picture.withPixels { $0.update(repeating: 0xFF00_0000 | UInt32(index * 12) << 16 | 0x4080) }
            try PNGFile.write(picture, to: folder + "/p\(index).png")
            cards.append(#"{"id": "c\#(index)", "template": "photo", "fields": {"p": "p\#(index).png"}}"#)
        }
        let deck = folder + "/deck.json"
        SessionHarness.writeFile(
            deck,
            """
            {"layout": {"type": "grid", "columns": 4, "cardHeight": 200},
             "templates": {"photo": {"height": 200, "elements": [
               {"image": "p", "left": 0, "top": 0, "right": 0, "bottom": 0, "fit": "cover"}]}},
             "sections": [{"cards": [\(cards.joined(separator: ","))]}]}
            """)
        let marquee = try start([
            "run", "--backend", "software", "--size", "1280x640", "--deck", deck, "--image-cache", "1",
        ])
        defer {
            kill(marquee.pid, SIGKILL)
            _ = exitStatus(marquee, within: 1)
            close(marquee.input)
            close(marquee.output)
        }
        send(marquee, "wait idle\n")
        let output = read(marquee, until: #""ok""#, seconds: 20)
        XCTAssertTrue(output.contains(#""ok":true"#), "wait idle answered: \(output)")
        let events = output.split(separator: "\n").filter { $0.contains("image-failed") }
        XCTAssertEqual(events.count, 1, output)
        XCTAssertTrue(
            events.first?.contains("pictures on screen need 2.6 MiB together, more than --image-cache (1 MiB)") == true,
            output)
        // Settled: no frame, no decode, while nothing changes.
        let before = cpuSeconds(marquee)
        usleep(1_000_000)
        XCTAssertLessThan(cpuSeconds(marquee) - before, 0.1, "a settled screen uses no CPU")
        send(marquee, "wait idle\nquit\n")
        let rest = read(marquee, until: "never", seconds: 3)
        XCTAssertEqual(rest.components(separatedBy: #""ok":true"#).count - 1, 2, rest)
        XCTAssertFalse(rest.contains("image-failed"), "reported once: \(rest)")
        XCTAssertEqual(exitStatus(marquee, within: 5), 0)
    }
}
