/// What a person at the preview window asked for, in the window's own terms; the session turns
/// it into scrolls, a snapshot or the end of the run.
public enum WindowInput: Equatable, Sendable {
    /// Up and Down: one card (a row in a grid) back or forward.
    case scrollRows(Int)
    /// Page Up and Page Down: one viewport height back or forward.
    case scrollPages(Int)
    /// Home and End.
    case scrollToStart, scrollToEnd
    /// `s`: write the frame on screen to a PNG file.
    case snapshot
    /// The window was closed, or `q` or Escape was pressed.
    case quit
}

/// A backend a person looks at and types into (the preview window): its input is not a file
/// descriptor, so the run loop asks for it after every wake-up.
public protocol InteractiveDisplay: AnyObject {
    /// Reads the window system's pending events; returns what they ask for, in order.
    func takeInput() -> [WindowInput]
    /// Shows a problem (a deck that failed to reload) in the window's title, or nil to clear it.
    func showProblem(_ message: String?)
}
