/// The space the content scrolls in.
extension Scene {
    /// The height of the space the content scrolls in: a page of `play pages` is this tall, and
    /// the loop and the ticker fill it. It is the layout's viewport, which is the screen less the
    /// deck's `overlays` bands, so paging follows the bands; every playback computation reads this
    /// one property and nothing else of the viewport's height.
    public var scrollSpaceHeight: Double { Double(layout.viewport.height) }
}
