import MarqueeCore

/// The three faces a deck's style asks for (title, body, header), opened once per style.
/// With a font override (`--font PATH`) every role uses that file.
public final class FontSet {
    public let title: FontFace
    public let body: FontFace
    public let header: FontFace
    private let library: FreeTypeLibrary
    private let locator: FontLocator?
    private let override: String?
    private let bodyPattern: String
    /// Faces template text elements ask for, by pattern and size (made on first use).
    private var elementFaces: [String: FontFace] = [:]
    private var elementFiles: [String: FontFace] = [:]

    /// The whole pixel size a face is opened at for a style's size.
    /// Held to 1...4096 so that no size a deck can hold traps the conversion.
    public static func pixelSize(_ size: Double) -> Int {
        guard size.isFinite else { return size > 0 ? 4096 : 1 }
        return Int(min(max(size, 1), 4096).rounded())
    }

    /// The face `run` draws `pattern` with at a style's `size`: fontconfig's file (and face
    /// index, within a collection) opened by FreeType. `check-deck` opens fonts with this too, so
    /// both accept the same fonts and refuse the others with the same words.
    public static func face(
        for pattern: String, size: Double, library: FreeTypeLibrary, locator: FontLocator
    ) throws(RenderError) -> FontFace {
        var cache: [String: FontFace] = [:]
        return try face(library, try locator.file(for: pattern), size, &cache)
    }

    /// Faces already open, by file and size, shared between roles and across style changes.
    private static func face(
        _ library: FreeTypeLibrary, _ file: (path: String, index: Int), _ size: Double,
        _ cache: inout [String: FontFace]
    ) throws(RenderError) -> FontFace {
        let pixels = pixelSize(size)
        let key = "\(pixels)@\(file.index)@\(file.path)"
        if let face = cache[key] { return face }
        let face = try FontFace(library: library, path: file.path, index: file.index, pixelSize: pixels)
        cache[key] = face
        return face
    }

    public init(
        style: Style, library: FreeTypeLibrary, locator: () throws(RenderError) -> FontLocator, override: String?
    )
        throws(RenderError)
    {
        self.library = library
        self.override = override
        bodyPattern = style.bodyFont
        var cache: [String: FontFace] = [:]
        func file(_ pattern: String) throws(RenderError) -> (path: String, index: Int) {
            if let override { return (override, 0) }
            return try locator().file(for: pattern)
        }
        title = try Self.face(library, try file(style.titleFont), style.titleSize, &cache)
        body = try Self.face(library, try file(style.bodyFont), style.bodySize, &cache)
        header = try Self.face(library, try file(style.headerFont), style.headerSize, &cache)
        // Characters a face lacks come from the fonts fontconfig sorts after the style's pattern.
        // Without fontconfig (no configuration) they are drawn as .notdef boxes instead.
        let fallbackLocator = try? locator()
        self.locator = fallbackLocator
        for (face, pattern) in [(title, style.titleFont), (body, style.bodyFont), (header, style.headerFont)]
        where face.fallback == nil {
            face.fallback = fallbackLocator?.fallback(for: override == nil ? pattern : "sans-serif")
        }
        elementFiles = cache
    }

    /// The fontconfig pattern of a template element's font: its family (the body font's when
    /// nil) at a CSS weight (100...900), named as fontconfig names weights.
    public static func pattern(family: String?, weight: Int, bodyPattern: String) -> String {
        let name: String
        switch weight {
        case ..<150: name = "thin"
        case ..<250: name = "extralight"
        case ..<350: name = "light"
        case ..<450: name = "regular"
        case ..<550: name = "medium"
        case ..<650: name = "semibold"
        case ..<750: name = "bold"
        case ..<850: name = "extrabold"
        default: name = "black"
        }
        let base = family ?? String(bodyPattern.prefix { $0 != ":" })
        return "\(base):weight=\(name)"
    }

    /// The face a template text element draws with. A deck whose element fonts cannot be opened
    /// is refused before it is shown (`check-deck` reports them too); should one still fail here
    /// (fontconfig's fonts changed since), the body font's family is drawn at the element's own
    /// size and weight, never at the body's size.
    public func elementFace(family: String?, weight: Int, size: Double) -> FontFace {
        let pattern = Self.pattern(family: family, weight: weight, bodyPattern: bodyPattern)
        let key = "\(FontSet.pixelSize(size))@\(pattern)"
        if let face = elementFaces[key] { return face }
        if elementFaces.count >= 256 { elementFaces.removeAll() }
        let face: FontFace
        do throws(RenderError) {
            let file: (path: String, index: Int)
            if let override {
                file = (override, 0)
            } else if let locator {
                file = try locator.file(for: pattern)
            } else {
                throw RenderError(.fontNotFound, "no fontconfig")
            }
            face = try Self.face(library, file, size, &elementFiles)
            if face.fallback == nil {
                face.fallback = locator?.fallback(for: override == nil ? pattern : "sans-serif")
            }
        } catch {
            face = bodyFamilyFace(weight: weight, size: size)
        }
        elementFaces[key] = face
        return face
    }

    /// The body font's family at an element's weight and size: what an element whose own font
    /// cannot be opened is drawn with; the body's file at that size when fontconfig has no match.
    private func bodyFamilyFace(weight: Int, size: Double) -> FontFace {
        let pattern = Self.pattern(family: nil, weight: weight, bodyPattern: bodyPattern)
        if override == nil, let locator, let file = try? locator.file(for: pattern),
            let face = try? Self.face(library, file, size, &elementFiles)
        {
            if face.fallback == nil { face.fallback = locator.fallback(for: pattern) }
            return face
        }
        if let face = try? Self.face(library, (body.path, body.faceIndex), size, &elementFiles) {
            if face.fallback == nil { face.fallback = body.fallback }
            return face
        }
        return body
    }

    /// Glyphs rasterized by the distinct faces of this set.
    public var rasterizedGlyphCount: Int {
        var seen = Set<ObjectIdentifier>()
        var total = 0
        for face in [title, body, header] + Array(elementFaces.values)
        where seen.insert(ObjectIdentifier(face)).inserted {
            total += face.rasterizedGlyphCount
        }
        return total
    }
}
