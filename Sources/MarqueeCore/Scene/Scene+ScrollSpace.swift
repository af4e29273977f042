/// The space the content scrolls in.
extension Scene {
    /// The height of the space the content scrolls in: a page of `play pages` is this tall, and
    /// the loop and the ticker fill it. Today it is the viewport's height. Overlays (bands fixed to
    /// the top or bottom edge, the other half of the signage work) shrink this space by their
    /// bands; paging must follow, so every playback computation reads this one property and
    /// nothing else of the viewport's height.
    public var scrollSpaceHeight: Double { Double(layout.viewport.height) }
}
