import Glibc
import XCTest

/// deploy/install.sh, installed under a scratch root (`--root`, which creates no user and leaves
/// systemd alone) with the debug binary: what it installs, that running it again keeps the
/// operator's deck and settings, and what `--uninstall` and `--purge` remove.
final class InstallScriptTests: XCTestCase, SpawnsMarquee {
    private var projectRoot: String { #filePath.components(separatedBy: "/Tests/").first! }

    private func install(_ arguments: String) -> Int32 {
        let command = "bash '\(projectRoot)/deploy/install.sh' \(arguments) >/dev/null 2>&1"
        let status = system(command)
        return (status >> 8) & 0xFF
    }

    private func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private func contents(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while case let byte = fgetc(file), byte != EOF { bytes.append(UInt8(byte)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testInstallAgainKeepsTheOperatorsFilesAndUninstallRemovesWhatItAdded() throws {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        let root = "/tmp/marquee-install-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        XCTAssertEqual(install("--root \(root) --binary \(binary)"), 0)
        for path in [
            "/usr/local/bin/marquee", "/etc/systemd/system/marquee.service", "/etc/marquee/deck.json",
            "/etc/default/marquee", "/usr/local/share/doc/marquee/deployment.md",
            "/usr/local/share/doc/marquee/raspberry-pi.md", "/var/lib/marquee",
        ] {
            XCTAssertTrue(exists(root + path), path)
        }
        XCTAssertEqual(access(root + "/usr/local/bin/marquee", X_OK), 0)

        // The operator edits the deck and the settings; installing again keeps both.
        let deck = root + "/etc/marquee/deck.json"
        XCTAssertEqual(system("printf '{\"sections\":[]}' > '\(deck)'"), 0)
        XCTAssertEqual(system("echo MARQUEE_OPTIONS=--rotate=90 >> '\(root)/etc/default/marquee'"), 0)
        XCTAssertEqual(install("--root \(root) --binary \(binary)"), 0)
        XCTAssertEqual(contents(of: deck), "{\"sections\":[]}")
        XCTAssertTrue(contents(of: root + "/etc/default/marquee").contains("--rotate=90"))

        XCTAssertEqual(install("--root \(root) --uninstall"), 0)
        XCTAssertFalse(exists(root + "/usr/local/bin/marquee"))
        XCTAssertFalse(exists(root + "/etc/systemd/system/marquee.service"))
        XCTAssertTrue(exists(deck), "uninstall keeps the deck")
        XCTAssertEqual(install("--root \(root) --uninstall --purge"), 0)
        XCTAssertFalse(exists(deck))
        XCTAssertFalse(exists(root + "/etc/default/marquee"))

        XCTAssertEqual(install("--bogus"), 2, "an unknown option is refused")
    }
}
