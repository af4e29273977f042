/// A failure the runtime reports to the user as one line on stderr and a non-zero exit.
public struct RuntimeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
