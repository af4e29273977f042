import XCTest

/// Runs `body` once for every value and names the value in any failure inside it (swift-collections'
/// habit of exhaustive small-case tests): an `XCTAssert` that fails for one value among hundreds is
/// useless without the value, and assertions do not throw, so failures are counted by an observer.
public func withEvery<S: Sequence>(
    _ label: String, in values: S, file: StaticString = #filePath, line: UInt = #line,
    _ body: (S.Element) throws -> Void
) rethrows {
    FailureCounter.startObserving()
    for value in values {
        let before = FailureCounter.count
        do {
            try body(value)
        } catch {
            XCTFail("withEvery: threw with \(label) = \(value)", file: file, line: line)
            throw error
        }
        if FailureCounter.count > before {
            XCTFail("withEvery: the failures above are for \(label) = \(value)", file: file, line: line)
        }
    }
}

/// Counts the test failures recorded in this process (XCTest's observation API).
private final class FailureCounter: NSObject, XCTestObservation, @unchecked Sendable {
    // XCTest runs tests one at a time on one thread.
    nonisolated(unsafe) private static var failures = 0
    nonisolated(unsafe) private static var observer: FailureCounter?

    static var count: Int { failures }

    static func startObserving() {
        guard observer == nil else { return }
        let counter = FailureCounter()
        observer = counter
        XCTestObservationCenter.shared.addTestObserver(counter)
    }

    func testCase(
        _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        Self.failures += 1
    }
}
