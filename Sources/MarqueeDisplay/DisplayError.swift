import MarqueeCore

/// Everything that can go wrong in MarqueeDisplay, with a message that says what to do next.
public struct DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case backendUnavailable
        case invalidConfiguration
        case systemCall
        /// The user may not open the device (the message names the group that may).
        case permissionDenied
        /// Another program is DRM master.
        case deviceBusy
        /// No connector has a display attached (the message lists the connectors).
        case noDisplay
        /// `--mode` or `--connector` names something the device does not offer (the message lists
        /// what it offers).
        case unsupportedRequest
    }

    public var code: Code
    public var message: String
    /// The system call's error, captured once where the call failed, when there was one.
    public var cause: Errno?

    public init(_ code: Code, _ message: String, errno: Errno) {
        self.code = code
        self.message = message
        self.cause = errno
    }

    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.cause = errno.map(Errno.init(rawValue:))
    }

    /// The errno of a failed system call, when there was one.
    public var errno: Int32? { cause?.rawValue }

    public var description: String { message }
}
