/// Why an image cannot be shown, in one line for the `image-failed` event (the path is given
/// beside it, so the message does not repeat it).
public struct ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
