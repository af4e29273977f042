import MarqueeDisplay

/// A failure the runtime reports to the user as one line on stderr and a non-zero exit.
public struct RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    /// The display's error behind it, with its code and the `Errno` of the failed call, kept up
    /// to where the exit status is decided.
    public var display: DisplayError?

    public init(_ message: String, display: DisplayError? = nil) {
        self.message = message
        self.display = display
    }

    public init(_ error: DisplayError) { self.init(error.message, display: error) }

    public var description: String { message }
}
