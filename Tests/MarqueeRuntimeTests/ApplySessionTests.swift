import Foundation
import MarqueeCore
import XCTest

/// `apply` through the protocol on a real session: a feed pushes whole states and sees the
/// differences animated, counted in the reply and ended by `batch-finished`.
final class ApplySessionTests: XCTestCase {
    let size = PixelSize(width: 640, height: 900)

    /// A deck of one section with these cards (id and title).
    func deckJSON(_ cards: [(String, String)], sectionID: String = "departures") -> String {
        let list = cards.map { #"{"id": "\#($0.0)", "title": "\#($0.1)"}"# }.joined(separator: ", ")
        return #"{"sections": [{"id": "\#(sectionID)", "title": "Departures", "cards": [\#(list)]}]}"#
    }

    func write(_ text: String, name: String) -> String {
        let path = "\(SessionHarness.scratch)/\(name)-\(UInt64.random(in: 0..<UInt64.max)).json"
        SessionHarness.writeFile(path, text)
        return path
    }

    func ids(_ frame: JSONValue) -> [String] {
        frame["cards"]!.array!.compactMap { card in card["leaving"] == nil ? card["id"]?.string : nil }
    }

    func testAFeedsNewStateIsAnimatedAndCounted() throws {
        let start = write(deckJSON([("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]), name: "start")
        // b is gone, e is new, d moves to the front, c gets a new title.
        let next = write(deckJSON([("d", "D"), ("a", "A"), ("c", "C delayed"), ("e", "E")]), name: "next")
        let run = try SessionHarness.run(
            "wait idle\napply \(next)\nwait idle\napply \(next)\nwait idle\n", deckPath: start, size: size)
        let replies = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(replies[1]["ok"]?.bool, true, "\(replies[1])")
        XCTAssertEqual(
            ["inserted", "deleted", "moved", "updated", "sectionsInserted", "sectionsDeleted", "settings"].map {
                replies[1][$0]?.number
            }, [1, 1, 1, 1, 0, 0, 0])
        XCTAssertEqual(
            ["inserted", "deleted", "moved", "updated", "settings"].map { replies[3][$0]?.number }, [0, 0, 0, 0, 0],
            "the same state again changes nothing")
        let events = run.replies.filter { $0["event"] != nil }
        XCTAssertEqual(events.map { $0["event"]?.string }, ["batch-finished", "batch-finished"])
        XCTAssertEqual(events.map { $0["seq"]?.number }, [2, 4])
        XCTAssertNotNil(events[0]["presented"]?.number)
        // On screen: b falls away, e grows in, and the last frame shows the new order.
        XCTAssertTrue(
            run.trace.contains { $0["cards"]!.array!.contains { $0["id"]?.string == "b" && $0["leaving"] != nil } })
        XCTAssertTrue(
            run.trace.contains {
                $0["cards"]!.array!.contains { $0["id"]?.string == "e" && ($0["scale"]?.number ?? 1) < 0.5 }
            })
        XCTAssertEqual(ids(run.trace.last!), ["d", "a", "c", "e"])
    }

    func testAStateOnTheCommandLine() throws {
        let start = write(deckJSON([("a", "A")]), name: "start")
        let run = try SessionHarness.run(
            "apply \(deckJSON([("a", "A"), ("n", "New # not a comment")]))\nwait idle\n", deckPath: start, size: size)
        XCTAssertEqual(run.replies.first?["inserted"]?.number, 1, "\(run.replies)")
        XCTAssertEqual(ids(run.trace.last!), ["a", "n"])
    }

    func testAnInvalidStateChangesNothingAndNamesItsFirstProblem() throws {
        let start = write(deckJSON([("a", "A"), ("b", "B")]), name: "start")
        let duplicates = write(deckJSON([("x", "X"), ("x", "X"), ("y", "Y"), ("y", "Y")]), name: "dup")
        let withBOM = write("\u{FEFF}" + deckJSON([("b", "B")]), name: "bom")
        let script = """
            apply \(duplicates)
            apply /no/such/deck.json
            apply {"sections": [
            apply
            batch
            apply \(withBOM)
            commit
            wait idle
            apply \(withBOM)
            wait idle
            """
        let run = try SessionHarness.run(script, deckPath: start, size: size)
        let replies = run.replies.filter { $0["event"] == nil }
        let errors = replies.compactMap { $0["error"]?.string }
        XCTAssertTrue(errors[0].hasPrefix("apply: "), errors[0])
        XCTAssertTrue(errors[0].contains("duplicate id \"x\"") && errors[0].contains("1 more"), errors[0])
        XCTAssertTrue(errors[1].contains("/no/such/deck.json"), errors[1])
        XCTAssertTrue(errors[2].hasPrefix("apply: "), errors[2])
        XCTAssertTrue(errors[3].contains("usage: apply"), errors[3])
        XCTAssertTrue(errors[4].contains("apply cannot stand inside a batch"), errors[4])
        XCTAssertEqual(
            replies.last { $0["deleted"] != nil }?["deleted"]?.number, 1, "a deck with a byte order mark is applied")
        // Until the last apply, the first deck stayed as it was.
        let beforeLast = run.trace.last { !ids($0).isEmpty && ids($0).contains("a") }
        XCTAssertEqual(beforeLast.map(ids), ["a", "b"])
        XCTAssertEqual(ids(run.trace.last!), ["b"])
    }
}

/// The feed example in docs/examples/feed: its states, piped into a session, are each applied.
final class FeedExampleTests: XCTestCase {
    func testTheBoardFeedsStatesThatApply() throws {
        let root = #filePath.components(separatedBy: "/Tests/").first!
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["\(root)/docs/examples/feed/board.py", "--count", "6", "--every", "0", "--seed", "5"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 6)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("apply {") })

        let run = try SessionHarness.run(
            lines.joined(separator: "\nwait idle\n") + "\nwait idle\n", size: PixelSize(width: 720, height: 1280))
        let applied = run.replies.filter { $0["inserted"] != nil }
        XCTAssertEqual(applied.count, 6, "\(run.replies.filter { $0["ok"]?.bool == false })")
        let later = applied.dropFirst()
        XCTAssertGreaterThan(later.reduce(0) { $0 + $1["deleted"]!.number! }, 0, "trains leave")
        XCTAssertGreaterThan(later.reduce(0) { $0 + $1["inserted"]!.number! }, 0, "trains join")
        // The last frame shows the last state's trains, in its order.
        let last = try JSONParser.parse(String(lines.last!.dropFirst("apply ".count)))
        let expected = last["sections"]!.array![0]["cards"]!.array!.map { $0["id"]!.string! }
        let shown = run.trace.last!["cards"]!.array!.compactMap { $0["id"]?.string }
        XCTAssertEqual(shown, expected)
    }
}
