import Glibc

/// A system error code, captured once at the call that failed (as swift-system's `Errno`): later
/// calls (an allocation, a log line, `strerror` itself) may change `errno`, so it is read in one
/// place, right after the failure, and carried as this value up to the `DisplayError` and the exit
/// status.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`, now.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let busy = Errno(rawValue: EBUSY)
    public static let tryAgain = Errno(rawValue: EAGAIN)
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let connectionReset = Errno(rawValue: ECONNRESET)

    /// "Invalid argument" (`strerror`).
    public var description: String { String(cString: strerror(rawValue)) }
}

/// The one place system calls go through: a failure is captured as an
/// `Errno` at once, and EINTR (a signal arrived during the call) is retried here rather than at
/// every caller.
public enum SystemCall {
    /// Runs `call` (a C function returning 0 or a non-negative value on success, -1 or a negative
    /// value with `errno` set on failure) until it is not interrupted.
    @discardableResult
    public static func run(retryingInterrupts: Bool = true, _ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let code = Errno.current
            if retryingInterrupts && code == .interrupted { continue }
            return .failure(code)
        }
    }

    /// For libdrm calls that return the negated error code themselves (`drmModeAtomicCommit`
    /// returns -errno on some paths and -1 with `errno` on others): the code from the result
    /// when it is one, else `errno`.
    public static func runReturningCode(_ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let code = result < -1 ? Errno(rawValue: -result) : Errno.current
            if code == .interrupted { continue }
            return .failure(code)
        }
    }

    /// Runs `call` (returning a pointer, nil with `errno` set on failure), capturing the `Errno`.
    public static func pointer<T>(_ call: () -> T?) -> Result<T, Errno> {
        while true {
            if let value = call() { return .success(value) }
            let code = Errno.current
            if code == .interrupted { continue }
            return .failure(code)
        }
    }
}
