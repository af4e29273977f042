import MarqueeCore

/// The three faces a deck's style asks for (title, body, header), opened once per style.
/// With a font override (`--font PATH`) every role uses that file.
public final class FontSet {
    public let title: FontFace
    public let body: FontFace
    public let header: FontFace

    /// The whole pixel size a face is opened at for a style's size.
    /// Held to 1...4096 so that no size a deck can hold traps the conversion.
    public static func pixelSize(_ size: Double) -> Int {
        guard size.isFinite else { return size > 0 ? 4096 : 1 }
        return Int(min(max(size, 1), 4096).rounded())
    }

    /// Faces already open, by file and size, shared between roles and across style changes.
    private static func face(
        _ library: FreeTypeLibrary, _ path: String, _ size: Double, _ cache: inout [String: FontFace]
    ) throws(RenderError) -> FontFace {
        let pixels = pixelSize(size)
        let key = "\(pixels)@\(path)"
        if let face = cache[key] { return face }
        let face = try FontFace(library: library, path: path, pixelSize: pixels)
        cache[key] = face
        return face
    }

    public init(
        style: Style, library: FreeTypeLibrary, locator: () throws(RenderError) -> FontLocator, override: String?
    )
        throws(RenderError)
    {
        var cache: [String: FontFace] = [:]
        func path(_ pattern: String) throws(RenderError) -> String {
            if let override { return override }
            return try locator().path(for: pattern)
        }
        title = try Self.face(library, try path(style.titleFont), style.titleSize, &cache)
        body = try Self.face(library, try path(style.bodyFont), style.bodySize, &cache)
        header = try Self.face(library, try path(style.headerFont), style.headerSize, &cache)
    }

    /// Glyphs rasterized by the distinct faces of this set.
    public var rasterizedGlyphCount: Int {
        var seen = Set<ObjectIdentifier>()
        var total = 0
        for face in [title, body, header] where seen.insert(ObjectIdentifier(face)).inserted {
            total += face.rasterizedGlyphCount
        }
        return total
    }
}
