import Foundation
import Glibc
import XCTest

@testable import marquee

/// Overlay bands are checked as cards are: a picture a band shows that cannot be shown is a
/// problem at the band's field, and characters no font has in a band's text a warning.
final class CheckDeckOverlayTests: XCTestCase {
    func testABandsMissingPictureAndCharactersNoFontHasAreReported() {
        let folder = "/tmp/marquee-band-check-\(getpid())"
        mkdir(folder, 0o755)
        defer { rmdir(folder) }
        let deck = #"""
            {"templates": {"bar": {"elements": [{"text": "t", "left": 10, "top": 5, "right": 80, "size": 20},
                                                {"image": "logo", "right": 5, "top": 5, "width": 40, "height": 40}]}},
             "overlays": [{"edge": "top", "height": 50, "template": "bar", "fields": {"t": "band \udbff\udffd", "logo": "missing-logo.png"}}],
             "sections": [{"cards": [{"id": "x", "title": "x"}]}]}
            """#
        let report = CheckDeck.report(Array(deck.utf8), file: folder + "/band.json")
        XCTAssertFalse(report.valid, "\(report.output)")
        XCTAssertTrue(
            report.output.contains {
                $0.hasPrefix("\(folder)/band.json: overlays[0].fields.logo: ") && $0.contains("missing-logo.png")
            }, "\(report.output)")
        // The glyph check runs on decks without problems: the same band with its picture given.
        let shown = deck.replacingOccurrences(of: #", "logo": "missing-logo.png""#, with: "")
        let valid = CheckDeck.report(Array(shown.utf8), file: folder + "/band.json")
        XCTAssertTrue(valid.valid, "\(valid.output)")
        XCTAssertTrue(
            valid.output.contains(
                "\(folder)/band.json: warning: overlays[0].fields.t: overlay band 0 has U+10FFFD, which no installed font has (drawn as an empty box)"
            ), "\(valid.output)")
    }
}
