import MarqueeCore
import XCTest

@testable import MarqueeRender

/// A font pattern names an installed family or is refused (fontconfig always answers with some
/// font, and a silent substitute would change a kiosk's look): a family is installed when it is
/// any of the match's family names, a generic family (`sans-serif`, `monospace`) is its
/// substitute by definition, and a hyphen in a family name is part of the name unless a size
/// follows it.
final class FontLocatorTests: XCTestCase {
    func testInstalledFamiliesGenericFamiliesAndHyphens() throws {
        let locator = try FontLocator()
        // DejaVu Sans ExtraLight's family names are "DejaVu Sans" and "DejaVu Sans Light".
        XCTAssertTrue(try locator.path(for: "DejaVu Sans Light").contains("DejaVuSans-ExtraLight"))
        XCTAssertNoThrow(try locator.path(for: "sans-serif"))
        XCTAssertNoThrow(try locator.path(for: "monospace:weight=bold"))
        XCTAssertNoThrow(try locator.path(for: "DejaVu Sans-12"))
        for missing in ["No-Such-Font", "NoSuchFont:bold"] {
            XCTAssertThrowsError(try locator.path(for: missing)) { error in
                let family = missing.prefix { $0 != ":" }
                XCTAssertTrue("\(error)".contains("font \"\(family)\" is not installed"), "\(error)")
            }
        }
        XCTAssertEqual(FontLocator.escapingFamilyHyphens("sans-serif:bold"), #"sans\-serif:bold"#)
        XCTAssertEqual(FontLocator.escapingFamilyHyphens("DejaVu Sans-12,14:bold"), "DejaVu Sans-12,14:bold")
        XCTAssertEqual(FontLocator.escapingFamilyHyphens(#"a\-b-c:x-y"#), #"a\-b\-c:x-y"#)
    }
}
