import Foundation
import Glibc
import MarqueeProtocol
import XCTest

@testable import MarqueeRuntime

/// A feed that writes faster than its `wait` commands let the queue drain: the queue is never
/// empty when the session takes the next command. The entries already carried out must not pile
/// up (they did: the soak's memory climbed by about 3 MB per 25,000 commands).
final class CommandQueueTests: XCTestCase {
    func testCarriedOutCommandsAreFreedWhileTheQueueNeverEmpties() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        let output = OutputQueue(publisher: { _, _ in })
        let source = CommandSource(name: "test", input: fds[0], output: output, isClient: false)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var scratch: [DecodedLine] = []
        var taken = 0
        var largestStored = 0
        for round in 0..<400 {
            // 500 lines arrive, 499 are carried out: one more stays pending each round.
            let lines = String(repeating: "scroll-by 1\n", count: 500)
            _ = lines.utf8CString.withUnsafeBufferPointer { write(fds[1], $0.baseAddress, $0.count - 1) }
            source.read(into: &buffer, scratch: &scratch)
            for _ in 0..<499 {
                guard let (seq, _, _) = source.next() else { return XCTFail("round \(round): the queue ran dry") }
                taken += 1
                XCTAssertEqual(seq, taken, "commands are taken in order")
            }
            largestStored = max(largestStored, source.storedCount)
        }
        close(fds[1])
        XCTAssertEqual(source.pendingCount, 400)
        // 200,000 lines went through; what is stored stays within a constant of what is pending.
        XCTAssertLessThanOrEqual(
            largestStored, 2 * source.pendingCount + CommandSource.keptCapacity,
            "stored \(largestStored) entries for \(source.pendingCount) pending")
        while source.next() != nil { taken += 1 }
        XCTAssertEqual(taken, 200_000)
        XCTAssertEqual(source.storedCount, 0)
    }

    /// Lines held behind a `wait` are bounded by their decoded size: a source holding more than
    /// its share is not read (its writer waits on the pipe), and is read again once they are
    /// carried out. Nothing is dropped on the way.
    func testABacklogOfBigLinesStopsReadingUntilItIsCarriedOut() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let source = CommandSource(
            name: "test", input: fds[0], output: OutputQueue(publisher: { _, _ in }), isClient: false)
        // About 57 KB a line, 5,800 fields: decoded, about 800 KB.
        let fields = (0..<5800).map { "\"k\($0)\":1" }.joined(separator: ",")
        let line = Array("update id:d1 {\"fields\":{\(fields)}}\n".utf8)
        let lines = 200
        let writeEnd = fds[1]
        let writer = Thread {
            for _ in 0..<lines {
                var offset = 0
                while offset < line.count {
                    let written = line[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    if written <= 0 { return }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var scratch: [DecodedLine] = []
        // Read as the session does while the first command is held.
        var stalls = 0
        while source.wantsInput(allPendingBytes: source.pendingBytes) && stalls < 2000 {
            let before = source.pendingCount
            source.read(into: &buffer, scratch: &scratch)
            if source.pendingCount == before { stalls += 1; usleep(1000) }
        }
        XCTAssertFalse(source.wantsInput(allPendingBytes: source.pendingBytes), "reading stopped")
        XCTAssertGreaterThanOrEqual(source.pendingBytes, CommandSource.maximumPendingBytes)
        XCTAssertLessThan(source.pendingCount, 20, "a few big lines, not 4,096, are held")
        // Carried out one by one, the rest is read: every line arrives, in order.
        var taken = 0
        while taken < lines {
            if let (seq, decoded, _) = source.next() {
                taken += 1
                XCTAssertEqual(seq, taken)
                guard case .command(.update) = decoded else { return XCTFail("line \(seq) is \(decoded)") }
            } else if source.wantsInput(allPendingBytes: source.pendingBytes) {
                source.read(into: &buffer, scratch: &scratch)
                usleep(100)
            } else {
                return XCTFail("nothing pending, yet not read")
            }
        }
        XCTAssertEqual(source.pendingBytes, 0, "every line's estimate was given back")
    }

    /// Over the budget all sources share, a source with lines pending waits, and one with none is
    /// still read: one client's backlog never stops another's commands.
    func testASourceWithNothingPendingIsReadWhateverTheOthersHold() {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let source = CommandSource(
            name: "test", input: fds[0], output: OutputQueue(publisher: { _, _ in }), isClient: false)
        let over = CommandSource.sharedMaximumPendingBytes
        XCTAssertTrue(source.wantsInput(allPendingBytes: over))
        _ = "scroll-by 1\n".utf8CString.withUnsafeBufferPointer { write(fds[1], $0.baseAddress, $0.count - 1) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var scratch: [DecodedLine] = []
        source.read(into: &buffer, scratch: &scratch)
        XCTAssertEqual(source.pendingCount, 1)
        XCTAssertTrue(source.wantsInput(allPendingBytes: over - 1))
        XCTAssertFalse(source.wantsInput(allPendingBytes: over))
    }
}
