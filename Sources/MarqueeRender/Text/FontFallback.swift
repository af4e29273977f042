import CFontconfig

/// The fonts fontconfig offers for one pattern, best first (`FcFontSort`, trimmed to fonts that
/// add coverage), each with its character set: a character the pattern's font lacks is taken from
/// the first of these that has it, as Pango does. Decisions are cached per character; the list is
/// sorted once per pattern (a few milliseconds with a few hundred fonts installed).
final class FontFallback {
    struct File: Equatable {
        var path: String
        var index: Int
    }

    /// A reference of its own to fontconfig's configuration (`FcConfigReference`), kept while the
    /// sorted set points into it. Not the locator itself: the locator keeps its fallbacks, and the
    /// two holding each other leaked both, with every font set, at exit (LeakSanitizer's soak).
    private let config: OpaquePointer
    private let fontSet: UnsafeMutablePointer<FcFontSet>?
    private var files: [File] = []
    private var charsets: [OpaquePointer?] = []
    /// Whether each candidate is a colour font (fontconfig's `color` property: CBDT, sbix, COLR).
    private var colors: [Bool] = []
    private var candidatesOfScalar: [UInt32: [Int]] = [:]
    private var colorCandidatesOfScalar: [UInt32: [Int]] = [:]

    init(locator: FontLocator, pattern parsed: OpaquePointer) {
        config = FcConfigReference(locator.config)
        var result = FcResultNoMatch
        fontSet = FcFontSort(locator.config, parsed, FcTrue, nil, &result)
        guard let fontSet else { return }
        for position in 0..<Int(fontSet.pointee.nfont) {
            guard let font = fontSet.pointee.fonts[position] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, marquee_fc_file(), 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, marquee_fc_index(), 0, &index)
            var charset: OpaquePointer?
            _ = FcPatternGetCharSet(font, marquee_fc_charset(), 0, &charset)
            files.append(
                File(
                    path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), index: Int(index)
                ))
            charsets.append(charset)
            var color: FcBool = FcFalse
            _ = FcPatternGetBool(font, marquee_fc_color(), 0, &color)
            colors.append(color != FcFalse)
        }
    }

    deinit {
        if let fontSet { FcFontSetDestroy(fontSet) }
        FcConfigDestroy(config)
    }

    func file(_ candidate: Int) -> File { files[candidate] }

    /// The colour candidates whose character set has `value`, best first.
    func colorCandidates(containing value: UInt32) -> [Int] {
        if let known = colorCandidatesOfScalar[value] { return known }
        let found = charsets.indices.filter { candidate in
            colors[candidate] && charsets[candidate].map { FcCharSetHasChar($0, value) != 0 } ?? false
        }
        colorCandidatesOfScalar[value] = found
        return found
    }

    /// The candidates whose character set has `value`, best first.
    func candidates(containing value: UInt32) -> [Int] {
        if let known = candidatesOfScalar[value] { return known }
        var found: [Int] = []
        for (candidate, charset) in charsets.enumerated()
        where charset.map({ FcCharSetHasChar($0, value) != 0 }) ?? false {
            found.append(candidate)
            // The first usable one is taken; a few more cover fonts FreeType cannot open.
            if found.count == 4 { break }
        }
        candidatesOfScalar[value] = found
        return found
    }
}
