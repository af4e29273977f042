import MarqueeCore
import MarqueeRender

/// The faces the default style asks for (DejaVu Sans, with fontconfig's fallbacks), opened as
/// `Renderer` opens them: for text tests that need a face, not a frame.
public func defaultStyleFonts(_ style: Style = Style()) throws -> FontSet {
    let locator = try FontLocator()
    return try FontSet(
        style: style, library: try FreeTypeLibrary(), locator: { () throws(RenderError) in locator }, override: nil)
}
