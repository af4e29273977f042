import Glibc
import MarqueeCore
import MarqueeRuntime
import XCTest

/// Hostile lines through the real command path: each gets one error reply, nothing changes, and
/// the renderer goes on to finish what comes after.
final class HostileInputSessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    func replies(_ run: SessionRun) -> [JSONValue] { run.replies.filter { $0["seq"] != nil && $0["event"] == nil } }

    func testExtremeNumbersGetOneErrorEachAndTheRendererGoesOn() throws {
        let hostile = [
            "scroll-by -9223372036854775808", "scroll-by 9223372036854775807", "scroll-by -9223372036854775809",
            "scroll-to -9223372036854775808", "scroll-to 9223372036854775807:-9223372036854775808",
            "scroll-to section:-9223372036854775808", "scroll-to section:9223372036854775807",
            "scroll-to \(String(repeating: "9", count: 400))", "scroll-to offset:nan", "scroll-to -inf%",
            "scroll-by 1e308px", "scroll-by -Infinitypx", "wait nan", "wait 1e-320e5", "appear stagger=inf",
            "move -9223372036854775808 9223372036854775807", "move 9223372036854775807 0:9223372036854775807",
            "delete -9223372036854775808", "delete 9223372036854775807:0",
            #"insert 9223372036854775807 {"id": "z"}"#, #"insert 0:9223372036854775807 {"id": "z"}"#,
            #"update -9223372036854775808 {"title": "t"}"#, #"insert 0 {"id": "z", "height": 1e308}"#,
            #"insert-section 9223372036854775807 {"cards": []}"#, "delete-section -9223372036854775808",
            "scroll-to end duration=1e309",
        ]
        let script = hostile.joined(separator: "\n") + "\nscroll-to end duration=0.2\nwait idle\n"
        let run = try SessionHarness.run(script, size: size)
        let answers = replies(run)
        XCTAssertEqual(answers.count, hostile.count + 2, "one reply a line")
        for (line, reply) in zip(hostile, answers) {
            XCTAssertEqual(reply["ok"]?.bool, false, line)
            XCTAssertLessThan(reply["error"]?.string?.utf8.count ?? 0, 600, line)
        }
        XCTAssertEqual(answers.suffix(2).map { $0["ok"]?.bool }, [true, true])
        XCTAssertEqual(run.replies.filter { $0["event"]?.string == "scroll-finished" }.count, 1)
        let layout = CollectionLayout(deck: DemoDeck.make(), viewport: size)
        XCTAssertEqual(run.trace.last?.offsetY, layout.maxOffset, "the scroll after them finished")
        XCTAssertEqual(run.status, 0)
    }

    func testAHugeInvalidDeckIsAnsweredInOneShortLine() throws {
        let count = 50_000
        let path = SessionHarness.scratch + "/duplicates.json"
        let cards = (0..<count).map { _ in #"{"id":"dup"}"# }.joined(separator: ",")
        SessionHarness.writeFile(path, #"{"sections":[{"cards":[\#(cards)]}]}"#)
        let run = try SessionHarness.run("load \(path)\nscroll-to end duration=0\nwait idle\n", size: size)
        let answers = replies(run)
        XCTAssertEqual(answers.count, 3)
        let error = try XCTUnwrap(answers[0]["error"]?.string)
        XCTAssertEqual(
            error,
            "load: deck \(path) is invalid: sections[0].cards[1].id: duplicate id \"dup\" (first used at sections[0].cards[0]) (and \(count - 2) more problems)"
        )
        XCTAssertEqual(answers[1]["ok"]?.bool, true, "the current deck stayed")
    }

    func testADeckWithAByteOrderMarkLoads() throws {
        let path = SessionHarness.scratch + "/bom.json"
        let file = fopen(path, "w")!
        fwrite([0xEF, 0xBB, 0xBF] as [UInt8], 1, 3, file)
        fputs(#"{"sections": [{"title": "Notepad", "cards": [{"id": "bom", "title": "Saved with a BOM"}]}]}"#, file)
        fclose(file)
        let run = try SessionHarness.run("load \(path)\nwait idle\n", size: size)
        XCTAssertEqual(replies(run).map { $0["ok"]?.bool }, [true, true], "\(run.replies)")
        XCTAssertEqual(run.trace.last?["cards"]?.array?.compactMap { $0["id"]?.string }, ["bom"])
        let started = try SessionHarness.run("wait idle\n", deckPath: path, size: size)
        XCTAssertEqual(started.trace.last?["cards"]?.array?.compactMap { $0["id"]?.string }, ["bom"], "--deck too")
    }
}

/// Card addresses through the protocol: every form for every command, a move to the end of a
/// middle section, and `scroll-to section:S`.
final class CardAddressSessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 480)

    /// Sections a (3 cards), b (2), c (12), with small cards so that all of a and b fit on screen.
    func writeDeck() -> String {
        let path = SessionHarness.scratch + "/addressed.json"
        func cards(_ prefix: String, _ count: Int) -> String {
            (0..<count).map { #"{"id": "\#(prefix)\#($0)"}"# }.joined(separator: ",")
        }
        SessionHarness.writeFile(
            path,
            """
            {"layout": {"cardHeight": 30, "spacing": 10, "headerHeight": 30, "insets": 20},
             "sections": [{"title": "A", "cards": [\(cards("a", 3))]}, {"title": "B", "cards": [\(cards("b", 2))]},
                          {"title": "C", "cards": [\(cards("c", 12))]}]}
            """)
        return path
    }

    func indices(_ frame: JSONValue) -> [String: Int] {
        var result: [String: Int] = [:]
        for card in frame["cards"]?.array ?? [] {
            if let id = card["id"]?.string, let index = card["index"]?.number, card["leaving"] == nil {
                result[id] = Int(index)
            }
        }
        return result
    }

    func testEveryFormThroughTheProtocolAndAMoveToTheEndOfAMiddleSection() throws {
        let run = try SessionHarness.run(
            """
            move id:a0 1:2
            wait idle
            update 1:0 {"title": "by S:I"}
            update id:b1 {"id": "renamed"}
            delete 0:1
            insert id:b0 {"id": "n1"}
            move 0 id:c0
            delete id:n1
            wait idle
            """, deckPath: writeDeck(), size: size)
        let answers = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [true, true, true, false, true, true, true, true, true])
        XCTAssertEqual(answers[3]["error"]?.string, #"update: cannot change a card's id ("b1" to "renamed")"#)
        // After the first move: a1 a2 | b0 b1 a0 | c0 ...: a0 ends section b, c0 still starts c.
        let afterMove = try XCTUnwrap(run.trace.first { indices($0)["a0"] == 4 })
        XCTAssertEqual(indices(afterMove)["b1"], 3)
        XCTAssertEqual(indices(afterMove)["c0"], 5)
        // Then a2 (0:1) goes, n1 comes before b0: a1 | n1 b0 b1 a0 | c0 c1 ...; a1 moves to the
        // index c0 has (5), which puts it after c0 once a1 is out; n1 goes: | b0 b1 a0 | c0 a1 c1.
        let last = indices(run.trace.last!)
        XCTAssertEqual(last["b0"], 0)
        XCTAssertEqual(last["b1"], 1)
        XCTAssertEqual(last["a0"], 2)
        XCTAssertEqual(last["c0"], 3)
        XCTAssertEqual(last["a1"], 4)
        XCTAssertEqual(last["c1"], 5)
        XCTAssertNil(last["a2"])
        XCTAssertNil(last["n1"])
    }

    func testScrollToASectionPutsItsHeaderAtTheTop() throws {
        let run = try SessionHarness.run(
            "scroll-to section:1 duration=0\nwait idle\nscroll-to 1:0 duration=0\nwait idle\nscroll-to section:3\n",
            deckPath: writeDeck(), size: size)
        XCTAssertEqual(
            run.replies.filter { $0["event"] == nil }.map { $0["ok"]?.bool }, [true, true, true, true, false])
        XCTAssertEqual(
            run.replies.last?["error"]?.string, "scroll: section 3 is out of range (the deck has 3 sections)")
        // Section A: header 40 + three cards of 40 from y = 20, so B's header starts at 180.
        let offsets = run.trace.map(\.offsetY)
        XCTAssertTrue(offsets.contains(160), "\(offsets)")
        let atSection = try XCTUnwrap(run.trace.first { $0.offsetY == 160 })
        let header = atSection["cards"]?.array?.first { $0["header"]?.number == 1 }
        XCTAssertEqual(header?["y"]?.number, 20, "the header sits where the first card rests")
        XCTAssertEqual(offsets.last, 200, "S:I puts the card, not its header, at the top")
    }
}
