import MarqueeCore
import MarqueeDisplay

/// A failure the runtime reports to the user as one line on stderr and a non-zero exit.
public struct RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The display's error behind it, with its code and the `Errno` of the failed call, kept up
    /// to where the exit status is decided.
    public var display: DisplayError?
    /// The system call's error behind it, captured where the call failed, when there was one.
    public var cause: Errno?
    /// A mistake in the command line (exit status 64, as the argument parser gives), found only
    /// once the deck is read: a `--trace` naming a picture the deck shows.
    public var isUsage = false

    public init(_ message: String, display: DisplayError? = nil, cause: Errno? = nil, isUsage: Bool = false) {
        self.message = message
        self.isUsage = isUsage
        self.display = display
        self.cause = cause ?? display?.cause
    }

    public init(_ error: DisplayError) { self.init(error.message, display: error) }

    /// "`message`: No such file or directory". The `Errno` comes first so that, in a call such as
    /// `RuntimeError(Errno.current, "cannot read \(path)")`, it is read before the message is
    /// built (building a string may allocate, and an allocation may change `errno`).
    public init(_ cause: Errno, _ message: String) {
        self.init("\(message): \(cause)", cause: cause)
    }

    public var description: String { message }
}
