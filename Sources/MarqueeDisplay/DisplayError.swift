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
    /// The errno of a failed system call, when there was one.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
