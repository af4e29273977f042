/// Everything that can go wrong in MarqueeRender, as one error type with a message for the user.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case fontNotFound
        case fontUnreadable
        case imageCreationFailed
        case pngWriteFailed
        case pngReadFailed
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
