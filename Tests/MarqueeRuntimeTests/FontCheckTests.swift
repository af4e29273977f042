import Glibc
import MarqueeCore
import MarqueeRender
import MarqueeRuntime
import XCTest

/// `check-deck`'s font check opens each font as `run` does, so a font that fontconfig finds but
/// FreeType cannot draw at the style's size is a problem before the kiosk starts, not at start.
final class FontCheckTests: XCTestCase {
    /// A one-glyph BDF bitmap font with a single 10 px strike: fontconfig lists it, FreeType opens
    /// it, but it cannot be drawn at any other size.
    static let bitmapFont = """
        STARTFONT 2.1
        FONT -misc-MarqueeBitmapTest-medium-r-normal--10-100-75-75-c-60-iso10646-1
        SIZE 10 75 75
        FONTBOUNDINGBOX 6 10 0 -2
        STARTPROPERTIES 6
        FAMILY_NAME "MarqueeBitmapTest"
        CHARSET_REGISTRY "ISO10646"
        CHARSET_ENCODING "1"
        PIXEL_SIZE 10
        FONT_ASCENT 8
        FONT_DESCENT 2
        ENDPROPERTIES
        CHARS 1
        STARTCHAR A
        ENCODING 65
        SWIDTH 600 0
        DWIDTH 6 0
        BBX 6 10 0 -2
        BITMAP
        00
        30
        48
        84
        84
        FC
        84
        84
        00
        00
        ENDCHAR
        ENDFONT

        """

    func testAFontFontconfigFindsButCannotDrawAtTheStylesSizeIsAProblem() throws {
        let folder = "/tmp/marquee-fontcheck-\(getpid())"
        mkdir(folder, 0o755)
        defer { _ = try? FileManagerless.removeTree(folder) }
        try FileManagerless.write(Self.bitmapFont, to: "\(folder)/test.bdf")
        try FileManagerless.write(
            "<fontconfig><dir>\(folder)</dir><cachedir>\(folder)/cache</cachedir></fontconfig>",
            to: "\(folder)/fonts.conf")
        setenv("FONTCONFIG_FILE", "\(folder)/fonts.conf", 1)
        defer { unsetenv("FONTCONFIG_FILE") }

        var style = Style()
        style.titleFont = "MarqueeBitmapTest"
        style.bodyFont = "MarqueeBitmapTest"
        style.headerFont = "MarqueeBitmapTest"
        style.bodySize = 10
        let problems = FontCheck.problems(in: style)
        XCTAssertEqual(problems.map(\.path), ["style.titleFont", "style.headerFont"], "\(problems)")
        XCTAssertTrue(problems[0].message.contains("cannot be drawn at 40 px"), problems[0].message)
        // `run` opens the style's fonts with FontSet: it refuses the style in the same words.
        let locator = try FontLocator()
        XCTAssertThrowsError(
            try FontSet(
                style: style, library: try FreeTypeLibrary(), locator: { () throws(RenderError) in locator },
                override: nil)
        ) { error in
            XCTAssertEqual((error as? RenderError)?.message, problems[0].message)
        }
    }

    /// Noto Color Emoji has one bitmap strike (109 px) and no outlines: `check-deck` and `run` both
    /// take it at any size, and its glyphs come out in colour at the text size.
    func testNotoColorEmojiIsAcceptedByCheckDeckAndRunAlike() throws {
        var style = Style()
        style.titleFont = "Noto Color Emoji"
        style.bodyFont = "Noto Color Emoji"
        style.headerFont = "Noto Color Emoji"
        style.titleSize = 33
        XCTAssertEqual(FontCheck.problems(in: style).map(\.message), [])
        let locator = try FontLocator()
        let fonts = try FontSet(
            style: style, library: try FreeTypeLibrary(), locator: { () throws(RenderError) in locator }, override: nil)
        XCTAssertTrue(fonts.title.hasColor)
        let glyph = fonts.title.glyph(fonts.title.glyphIndex(for: "\u{1F600}"))
        let image = try XCTUnwrap(glyph.color)
        XCTAssertEqual(Double(image.height), 33.0 * 128 / 109, accuracy: 1.01)
    }
}

/// File helpers without Foundation, for this test's scratch folder.
enum FileManagerless {
    struct WriteError: Error {}

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw WriteError() }
        fputs(text, file)
        fclose(file)
    }

    static func removeTree(_ path: String) throws {
        _ = system("rm -rf '\(path)'")
    }
}
