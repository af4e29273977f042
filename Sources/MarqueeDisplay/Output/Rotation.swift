import MarqueeCore

/// `--rotate`: how far the picture is turned, clockwise, on its way to the panel, for panels
/// mounted on their side or upside down. Marquee lays out and renders the *logical* frame (the
/// panel's width and height swapped for 90 and 270) and turns it while copying it out, so the
/// renderer, the trace and the layout never see the rotation.
///
/// Clockwise as the Raspberry Pi's `display_rotate` and the kernel's `fbcon=rotate:` count it: with
/// `--rotate 90` the top-left corner of the picture lands at the panel's top-right corner.
public enum Rotation: Int, CaseIterable, Sendable {
    case none = 0
    case quarter = 90
    case half = 180
    case threeQuarters = 270

    /// True when the logical frame is the panel turned on its side.
    public var swapsAxes: Bool { self == .quarter || self == .threeQuarters }

    /// The size Marquee renders at for a panel of `panel` pixels.
    public func logicalSize(ofPanel panel: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: panel.height, height: panel.width) : panel
    }

    /// The size of the panel that shows a logical frame of `logical` pixels.
    public func panelSize(ofLogical logical: PixelSize) -> PixelSize {
        logicalSize(ofPanel: logical)  // a quarter turn swaps the axes either way
    }
}
