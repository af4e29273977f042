import MarqueeCore
import MarqueeProtocol
import XCTest

@testable import MarqueeRuntime

/// A batch is held in memory until its commit: one never committed must not grow the process
/// without bound. Past its cap it is discarded at once, stays open (the edits after it are not
/// applied one by one out of their batch) and its commit applies nothing.
final class BatchCapTests: XCTestCase {
    func testABatchOverItsEditCapIsDiscardedAndItsCommitAppliesNothing() throws {
        let deck = SessionHarness.scratch + "/batch-cap.json"
        SessionHarness.writeFile(
            deck, #"{"sections": [{"cards": [{"id": "a", "title": "a"}, {"id": "b", "title": "b"}]}]}"#)
        let edits = OpenBatch.maximumEdits
        let script =
            "batch\n" + String(repeating: "delete 0\n", count: edits + 2) + "commit\ndelete id:a\nwait idle\nquit\n"
        let run = try SessionHarness.run(script, deckPath: deck)
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.count, edits + 7)
        XCTAssertEqual(answers.prefix(edits + 1).filter { $0["ok"]?.bool != true }.count, 0, "batch and the edits kept")
        let over = answers[edits + 1]
        XCTAssertEqual(over["ok"]?.bool, false)
        XCTAssertEqual(
            over["error"]?.string,
            "delete: the batch went over its cap (100,000 edits or 64 MiB of edit lines) and was discarded: nothing of it will be applied; edits up to its commit are answered with this error and not kept"
        )
        XCTAssertEqual(
            answers[edits + 2]["error"]?.string,
            "delete: not kept: the batch was discarded at line \(edits + 2) (over its cap of 100,000 edits or 64 MiB of edit lines); send commit to end it"
        )
        XCTAssertEqual(
            answers[edits + 3]["error"]?.string,
            "commit: the batch was not applied: line \(edits + 2): the batch went over its cap (100,000 edits or 64 MiB of edit lines) and was discarded"
        )
        // Nothing of the batch was applied: card "a" is still there, and the batch is over.
        XCTAssertEqual(answers[edits + 4]["ok"]?.bool, true, "\(answers[edits + 4])")
        XCTAssertEqual(run.trace.last?["cards"]?.array?.count, 1, "only the delete after the commit")
    }

    func testTheEditLinesBytesAreCappedAndTheDiscardedEditsFreed() {
        var batch = OpenBatch()
        let line = CommandDecoder.maximumLineBytes - 1
        var kept = 0
        while batch.keep(.deleteSection(0), seq: kept + 2, bytes: line) { kept += 1 }
        XCTAssertEqual(kept, OpenBatch.maximumBytes / line)
        XCTAssertEqual(batch.edits.count, 0, "the discarded edits are freed at once")
        XCTAssertEqual(batch.discardedAt, kept + 2)
        XCTAssertFalse(batch.keep(.deleteSection(0), seq: kept + 3, bytes: 1), "nothing is kept after it")
    }

    /// The decoder gives each line's bytes for the cap to count.
    func testTheDecoderCountsEachLinesBytes() {
        var decoder = CommandDecoder()
        var lines: [DecodedLine] = []
        decoder.feed(Array("delete 0\n# note\n\nupdate 0 {\"body\": \"xyz\"}\n".utf8), into: &lines)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(decoder.takeLineBytes(), [8, 24])
        XCTAssertEqual(decoder.takeLineBytes(), [])
    }
}
