import Foundation
import XCTest

/// Runs `body` on a thread of its own and says whether it returned within `seconds`, so that a
/// command that hangs fails its test instead of stopping the whole run. A body that never returns
/// is left running (the test has failed already).
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// A value written on one thread and read on another after it has signalled.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
