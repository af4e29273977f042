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
        guard let parsed = FcNameParse(Self.escapingFamilyHyphens(pattern)) else {
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
        let families = Self.strings(match, marquee_fc_family())
        let family = families.first ?? "?"
        if let requestedFamily, !Self.genericFamilies.contains(requestedFamily.lowercased()),
            !families.contains(where: { $0.lowercased() == requestedFamily.lowercased() })
        {
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
        guard let parsed = FcNameParse(Self.escapingFamilyHyphens(pattern)) else { return nil }
        defer { FcPatternDestroy(parsed) }
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        let fallback = FontFallback(locator: self, pattern: parsed)
        fallbacks[pattern] = fallback
        return fallback
    }

    /// Fontconfig's generic families: asking for one is asking for its substitute.
    static let genericFamilies: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji", "math",
    ]

    /// `pattern` with each hyphen of its family names escaped, unless a size follows it
    /// ("DejaVu Sans-12"): fontconfig reads "sans-serif" as the family "sans" at the size "serif".
    static func escapingFamilyHyphens(_ pattern: String) -> String {
        let family = pattern.prefix { $0 != ":" }
        guard family.contains("-") else { return pattern }
        var escaped = ""
        var index = family.startIndex
        while index < family.endIndex {
            let character = family[index]
            if character == "\\", family.index(after: index) < family.endIndex {
                escaped.append(character)
                index = family.index(after: index)
                escaped.append(family[index])
            } else if character == "-" {
                let rest = family[family.index(after: index)...]
                let isSize = !rest.isEmpty && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }
                escaped += isSize ? "-" : "\\-"
            } else {
                escaped.append(character)
            }
            index = family.index(after: index)
        }
        return escaped + pattern[family.endIndex...]
    }

    /// Every value of a string property (a font has several family names: "DejaVu Sans" and
    /// "DejaVu Sans Light").
    private static func strings(_ pattern: OpaquePointer, _ property: UnsafePointer<CChar>) -> [String] {
        var values: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, property, Int32(values.count), &value) == FcResultMatch, let found = value {
            values.append(String(cString: UnsafeRawPointer(found).assumingMemoryBound(to: CChar.self)))
        }
        return values
    }

    private static func string(_ pattern: OpaquePointer, _ property: UnsafePointer<CChar>) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, property, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: UnsafeRawPointer(value).assumingMemoryBound(to: CChar.self))
    }
}
