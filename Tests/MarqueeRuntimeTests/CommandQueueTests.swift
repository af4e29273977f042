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
}
