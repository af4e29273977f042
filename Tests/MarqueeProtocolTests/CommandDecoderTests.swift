import MarqueeCore
import MarqueeProtocol
import XCTest

final class CommandDecoderTests: XCTestCase {
    let session = Array(
        """
        # a scripted show
        scroll-to end duration=1

        scroll-to 3:2 curve=cubic-bezier(0.25, 0.1, 0.25, 1) duration=0.5\r
        scroll-by -2
        scroll-by 120px duration=0
        wait 0.25
        wait idle   # trailing comment
        snapshot /tmp/a.png
        bogus
        load deck.json
        apply new state.json
        apply next.json
        apply {"sections": [{"title": "# not a comment"}]}
        apply
        quit
        """.utf8)

    var expected: [DecodedLine] {
        [
            .command(.scrollTo(.end, ScrollOptions(duration: 1))),
            .command(
                .scrollTo(
                    .sectionItem(section: 3, item: 2),
                    ScrollOptions(duration: 0.5, curve: TimingCurve(name: "cubic-bezier(0.25,0.1,0.25,1)")))),
            .command(.scrollBy(.rows(-2), ScrollOptions())),
            .command(.scrollBy(.pixels(120), ScrollOptions(duration: 0))),
            .command(.wait(.seconds(0.25))),
            .command(.wait(.idle)),
            .command(.snapshot(path: "/tmp/a.png")),
            .invalid(
                "unknown command \"bogus\" (known commands: alert, alert-clear, appear, apply, batch, commit, delete, delete-section, display, insert, insert-section, load, move, pause, play, quit, replace, resume, scroll-by, scroll-to, snapshot, stop, update, wait)"
            ),
            .command(.load(path: "deck.json")),
            .invalid("apply: wrong number of arguments (usage: apply DECK.json | apply {DECK_JSON})"),
            .command(.apply(.file("next.json"))),
            .command(.apply(.json(##"{"sections": [{"title": "# not a comment"}]}"##))),
            .invalid("apply: missing a deck file or deck JSON (usage: apply DECK.json | apply {DECK_JSON})"),
            .command(.quit),
        ]
    }

    func testWholeChunk() {
        var decoder = CommandDecoder()
        var output: [DecodedLine] = []
        decoder.feed(session, into: &output)
        decoder.finish(into: &output)
        XCTAssertEqual(output, expected)
    }

    func testOneByteAtATime() {
        var decoder = CommandDecoder()
        var output: [DecodedLine] = []
        for byte in session { decoder.feed([byte], into: &output) }
        XCTAssertEqual(output.count, expected.count - 1, "the last line has no newline yet")
        decoder.finish(into: &output)
        XCTAssertEqual(output, expected)
    }

    func testEverySplitPointGivesTheSameLines() {
        for split in stride(from: 0, through: session.count, by: 7) {
            var decoder = CommandDecoder()
            var output: [DecodedLine] = []
            decoder.feed(session[..<split], into: &output)
            decoder.feed(session[split...], into: &output)
            decoder.finish(into: &output)
            XCTAssertEqual(output, expected, "split at \(split)")
        }
    }

    func testOverlongLineIsDiscardedWithOneError() {
        var decoder = CommandDecoder()
        var output: [DecodedLine] = []
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: CommandDecoder.maximumLineBytes + 10)
        decoder.feed(Array("quit\n".utf8) + long, into: &output)
        XCTAssertEqual(output, [.command(.quit)])
        decoder.feed(long, into: &output)
        decoder.feed(Array("\nquit\n".utf8), into: &output)
        XCTAssertEqual(output.count, 3)
        XCTAssertEqual(output[2], .command(.quit))
        guard case .invalid(let message) = output[1] else { return XCTFail("expected an error") }
        XCTAssertTrue(message.contains("longer than 65536"))
    }

    /// The limit is on the line itself: a line of exactly the limit is taken whether it ends in
    /// "\n" or "\r\n" (CRLF used to be refused as one byte over), and one byte more is not.
    func testALineOfExactlyTheLimitIsTakenWithEitherLineEnd() {
        // `scroll-by 1` padded with spaces to the limit.
        let exact = Array("scroll-by 1".utf8) + [UInt8](repeating: 0x20, count: CommandDecoder.maximumLineBytes - 11)
        for end in ["\n", "\r\n"] {
            for over in [0, 1] {
                var decoder = CommandDecoder()
                var output: [DecodedLine] = []
                decoder.feed(exact + [UInt8](repeating: 0x20, count: over) + Array(end.utf8), into: &output)
                let name = "\(exact.count + over) bytes ending \(end == "\n" ? "LF" : "CRLF")"
                if over == 0 {
                    XCTAssertEqual(output, [.command(.scrollBy(.rows(1), ScrollOptions()))], name)
                } else {
                    guard case .invalid(let message)? = output.first, output.count == 1 else {
                        return XCTFail("\(name): \(output)")
                    }
                    XCTAssertTrue(message.contains("longer than 65536"), name)
                }
            }
        }
        // A "\r" at the limit that is not the line's end leaves the line over it.
        var decoder = CommandDecoder()
        var output: [DecodedLine] = []
        decoder.feed(exact + Array("\rx\nquit\n".utf8), into: &output)
        XCTAssertEqual(output.count, 2)
        XCTAssertEqual(output.last, .command(.quit))
        guard case .invalid = output.first else { return XCTFail("\(output)") }
    }

    func testBadBytesAreErrors() {
        XCTAssertEqual(CommandDecoder.decode(line: [0x71, 0x00]), .invalid("line contains a NUL byte"))
        XCTAssertEqual(CommandDecoder.decode(line: [0x71, 0xFF]), .invalid("line is not valid UTF-8"))
        XCTAssertNil(CommandDecoder.decode(line: Array("   ".utf8)))
        XCTAssertNil(CommandDecoder.decode(line: Array("  # note".utf8)))
    }
}
