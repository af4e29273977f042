/// Everything that can go wrong in MarqueeDisplay, with a message that says what to do next.
public struct DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case backendUnavailable
        case invalidConfiguration
        case systemCall
    }

    public var code: Code
    public var message: String
    /// The errno of a failed system call, when there was one.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
