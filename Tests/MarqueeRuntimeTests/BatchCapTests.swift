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
            "delete: the batch went over its cap (100,000 edits or 128 MiB of decoded edits) and was discarded: nothing of it will be applied; edits up to its commit are answered with this error and not kept"
        )
        XCTAssertEqual(
            answers[edits + 2]["error"]?.string,
            "delete: not kept: the batch was discarded at line \(edits + 2) (over its cap of 100,000 edits or 128 MiB of decoded edits); send commit to end it"
        )
        XCTAssertEqual(
            answers[edits + 3]["error"]?.string,
            "commit: the batch was not applied: line \(edits + 2): the batch went over its cap (100,000 edits or 128 MiB of decoded edits) and was discarded"
        )
        // Nothing of the batch was applied: card "a" is still there, and the batch is over.
        XCTAssertEqual(answers[edits + 4]["ok"]?.bool, true, "\(answers[edits + 4])")
        XCTAssertEqual(run.trace.last?["cards"]?.array?.count, 1, "only the delete after the commit")
    }

    func testTheEditsAreCappedAndTheDiscardedEditsFreed() {
        let budget = BatchBudget()
        var batch = OpenBatch(budget: budget)
        let line = CommandDecoder.maximumLineBytes - 1
        var kept = 0
        while batch.keep(.deleteSection(0), seq: kept + 2, bytes: line) { kept += 1 }
        XCTAssertEqual(kept, OpenBatch.maximumBytes / (line + OpenBatch.bytesPerEdit))
        XCTAssertEqual(batch.edits.count, 0, "the discarded edits are freed at once")
        XCTAssertEqual(batch.discardedAt, kept + 2)
        XCTAssertEqual(budget.heldBytes, 0, "and their share of the budget given back")
        XCTAssertFalse(batch.keep(.deleteSection(0), seq: kept + 3, bytes: 1), "nothing is kept after it")
    }

    /// A `fields` object decodes to about eight times its line (`"k":1,` becomes a dictionary entry
    /// of two strings): the cap counts the decoded edits, so the 64 KiB lines of a feed that sends
    /// thousands of short fields each are stopped long before they hold hundreds of MB.
    func testAnEditIsChargedForItsDecodedFieldsNotItsLine() {
        var fields: [String: String] = [:]
        var line = #"update 0 {"fields":{"#
        for index in 0..<7000 {
            fields[String(index, radix: 16)] = "1"
            line += #""\#(String(index, radix: 16))":1,"#
        }
        XCTAssertLessThan(line.utf8.count, CommandDecoder.maximumLineBytes)
        let edit = Command.update(.index(0), CardPatch(fields: fields))
        var batch = OpenBatch(budget: BatchBudget())
        var kept = 0
        while batch.keep(edit, seq: kept + 2, bytes: line.utf8.count) { kept += 1 }
        let charged = line.utf8.count + OpenBatch.bytesPerEdit + 7000 * OpenBatch.bytesPerField
        XCTAssertEqual(kept, OpenBatch.maximumBytes / charged)
        XCTAssertLessThan(kept, 150, "a cap on line bytes alone kept over 1,100 such lines (560 MB)")
    }

    /// The open batches of all the controllers share one budget: two batches cannot each hold a
    /// whole cap, and a batch that ends gives its share back.
    func testOpenBatchesShareOneBudget() {
        let budget = BatchBudget()
        let line = CommandDecoder.maximumLineBytes - 1
        let cost = line + OpenBatch.bytesPerEdit
        var batches = (0..<3).map { _ in OpenBatch(budget: budget) }
        var kept = [0, 0, 0]
        for index in 0..<3 {
            while kept[index] < OpenBatch.maximumBytes / cost - 1,
                batches[index].keep(.deleteSection(0), seq: kept[index] + 2, bytes: line)
            {
                kept[index] += 1
            }
        }
        XCTAssertEqual(kept[0], OpenBatch.maximumBytes / cost - 1)
        XCTAssertEqual(kept[1], OpenBatch.maximumBytes / cost - 1)
        XCTAssertEqual(kept[0] + kept[1] + kept[2], OpenBatch.sharedMaximumBytes / cost)
        XCTAssertNotNil(batches[2].discardedAt)
        XCTAssertEqual(
            batches[2].problem?.contains("in all the open batches together"), true, "\(batches[2].problem ?? "")")
        XCTAssertLessThanOrEqual(budget.heldBytes, OpenBatch.sharedMaximumBytes)
        batches.removeFirst()
        XCTAssertEqual(budget.heldBytes, kept[1] * cost, "a batch that ends (commit, client gone) gives its share back")
        var next = OpenBatch(budget: budget)
        XCTAssertTrue(next.keep(.deleteSection(0), seq: 2, bytes: line))
    }

    /// A batch with an invalid line that later goes over its cap fails its commit naming the invalid
    /// line, the first problem, not the cap.
    func testTheFirstProblemOfABatchIsKept() {
        var batch = OpenBatch(budget: BatchBudget())
        batch.problem = "line 2 was invalid: unknown command"
        var seq = 3
        while batch.keep(.deleteSection(0), seq: seq, bytes: CommandDecoder.maximumLineBytes - 1) { seq += 1 }
        XCTAssertEqual(batch.discardedAt, seq)
        XCTAssertEqual(batch.problem, "line 2 was invalid: unknown command")
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
