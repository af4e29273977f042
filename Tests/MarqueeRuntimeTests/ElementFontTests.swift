import MarqueeCore
import MarqueeRender
import MarqueeRuntime
import XCTest

/// A template element's `font` is held to what a style's font is held to: a family that is not
/// installed is a `check-deck` problem and a deck naming one is refused (the shown deck stays),
/// never drawn in a substitute.
final class ElementFontTests: XCTestCase {
    static let missingFamily = "NoSuchFontMarquee"

    static func deckJSON(font: String, card: String) -> String {
        """
        {"templates": {"t": {"height": 110, "elements": [
           {"text": "f", "left": 0, "top": 0, "right": 0, "size": 40, "font": "\(font)"},
           {"clock": "%H", "left": 0, "top": 50, "right": 0, "size": 40}]}},
         "sections": [{"cards": [{"id": "\(card)", "template": "t", "fields": {"f": "Hello"}}]}]}
        """
    }

    func testCheckDeckNamesTheElementWhoseFontIsNotInstalledInTheStyleFontsWords() throws {
        let deck = try DeckDecoder.decode(bytes: Array(Self.deckJSON(font: Self.missingFamily, card: "x").utf8))
        let problems = FontCheck.problems(in: deck)
        XCTAssertEqual(problems.map(\.path), ["templates.t.elements[0].font"], "\(problems)")
        XCTAssertTrue(
            problems[0].message.hasPrefix(
                "font \"\(Self.missingFamily)\" is not installed (fontconfig would substitute"),
            problems[0].message)
        var style = Style()
        style.titleFont = Self.missingFamily
        let styleMessage = FontCheck.problems(in: style)[0].message
        XCTAssertEqual(
            problems[0].message.prefix { $0 != "(" }, styleMessage.prefix { $0 != "(" }, "the words a style font gets")
        let installed = try DeckDecoder.decode(bytes: Array(Self.deckJSON(font: "DejaVu Sans", card: "x").utf8))
        XCTAssertEqual(FontCheck.problems(in: installed), [])
    }

    func testADeckWithAnElementFontNotInstalledIsRefusedByRunLoadAndApplyAndTheShownDeckStays() throws {
        let good = SessionHarness.scratch + "/element-font-good.json"
        let bad = SessionHarness.scratch + "/element-font-bad.json"
        SessionHarness.writeFile(good, Self.deckJSON(font: "DejaVu Sans", card: "shown"))
        SessionHarness.writeFile(bad, Self.deckJSON(font: Self.missingFamily, card: "other"))
        let expected = "templates.t.elements[0].font: font \"\(Self.missingFamily)\" is not installed"
        XCTAssertThrowsError(try SessionHarness.run("quit\n", deckPath: bad)) { error in
            XCTAssertTrue("\(error)".contains(expected), "\(error)")
        }
        let run = try SessionHarness.run(
            """
            load \(bad)
            apply \(bad)
            update id:shown {"fields": {"f": "Still here"}}
            quit

            """, deckPath: good)
        let answers = run.replies.filter { $0["seq"] != nil && $0["event"] == nil }
        XCTAssertEqual(answers.map { $0["ok"]?.bool }, [false, false, true, true], "\(answers)")
        for answer in answers.prefix(2) {
            XCTAssertTrue(answer["error"]?.string?.contains(expected) ?? false, "\(answer)")
        }
    }

    /// With `--font PATH` every element draws with that file: the element's family is not asked for.
    func testAFontFileForEveryRoleTakesTheElementsFontOutOfTheQuestion() throws {
        let bad = SessionHarness.scratch + "/element-font-override.json"
        SessionHarness.writeFile(bad, Self.deckJSON(font: Self.missingFamily, card: "x"))
        let run = try SessionHarness.run("quit\n", deckPath: bad) {
            $0.fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        }
        XCTAssertEqual(run.status, 0)
    }
}
