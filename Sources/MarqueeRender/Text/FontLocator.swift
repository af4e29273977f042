import CFontconfig

/// Finds font files for fontconfig patterns ("DejaVu Sans:bold"). Fontconfig always answers with
/// *some* font; a substitute for a family that is not installed would silently change the look of
/// a kiosk, so a match whose family differs from the one asked for is reported as missing.
public final class FontLocator {
    let config: OpaquePointer
    private var cache: [String: (path: String, index: Int)] = [:]
    private var fallbacks: [String: FontFallback] = [:]

    /// Loads fontconfig's configuration (`FcInitLoadConfigAndFonts`).
    public init() throws(RenderError) {
        guard let config = FcInitLoadConfigAndFonts() else {
            throw RenderError(
                .fontNotFound, "fontconfig could not load its configuration (is the fontconfig package installed?)")
        }
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    /// The file of the best match for `pattern` (`FcFontMatch`).
    public func path(for pattern: String) throws(RenderError) -> String { try file(for: pattern).path }

    /// The file and face index (within a `.ttc` collection) of the best match for `pattern`.
    public func file(for pattern: String) throws(RenderError) -> (path: String, index: Int) {
        if let cached = cache[pattern] { return cached }
        guard let parsed = FcNameParse(pattern) else {
            throw RenderError(.fontNotFound, "font pattern \"\(pattern)\" is not valid fontconfig syntax")
        }
        defer { FcPatternDestroy(parsed) }
        let requestedFamily = Self.string(parsed, marquee_fc_family())
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, parsed, &result) else {
            throw RenderError(.fontNotFound, "no font matches \"\(pattern)\" (is fonts-dejavu-core installed?)")
        }
        defer { FcPatternDestroy(match) }
        guard let file = Self.string(match, marquee_fc_file()) else {
            throw RenderError(.fontNotFound, "fontconfig's match for \"\(pattern)\" has no file")
        }
        let family = Self.string(match, marquee_fc_family()) ?? "?"
        if let requestedFamily, requestedFamily.lowercased() != family.lowercased() {
            throw RenderError(
                .fontNotFound,
                "font \"\(requestedFamily)\" is not installed (fontconfig would substitute \"\(family)\"); install it, or name a font file with --font PATH"
            )
        }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, marquee_fc_index(), 0, &index)
        cache[pattern] = (file, Int(index))
        return (file, Int(index))
    }

    /// The fonts to take characters from that `pattern`'s font lacks (a font named by file,
    /// `--font PATH`, falls back as "sans-serif" does).
    func fallback(for pattern: String) -> FontFallback? {
        if let known = fallbacks[pattern] { return known }
        guard let parsed = FcNameParse(pattern) else { return nil }
        defer { FcPatternDestroy(parsed) }
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        let fallback = FontFallback(locator: self, pattern: parsed)
        fallbacks[pattern] = fallback
        return fallback
    }

    private static func string(_ pattern: OpaquePointer, _ property: UnsafePointer<CChar>) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, property, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
