import Glibc
import XCTest

/// deploy/install.sh, installed under a scratch root (`--root`, which creates no user and leaves
/// systemd alone) with the debug binary: what it installs, that running it again keeps the
/// operator's deck and settings, and what `--uninstall` and `--purge` remove.
final class InstallScriptTests: XCTestCase, SpawnsMarquee {
    private var projectRoot: String { #filePath.components(separatedBy: "/Tests/").first! }

    func install(_ arguments: String) -> Int32 {
        let command = "bash '\(projectRoot)/deploy/install.sh' \(arguments) >/dev/null 2>&1"
        let status = system(command)
        return (status >> 8) & 0xFF
    }

    /// The script's exit status and what it said on stderr.
    private func installSaying(_ arguments: String) -> (status: Int32, said: String) {
        let log = "/tmp/marquee-install-log-\(getpid())"
        defer { unlink(log) }
        let status = system("bash '\(projectRoot)/deploy/install.sh' \(arguments) >/dev/null 2>'\(log)'")
        return ((status >> 8) & 0xFF, contents(of: log))
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// An installed binary must not need the Swift runtime of the machine that built it: the
    /// script builds with it linked in, warns about a `--binary` that loads it from a toolchain, and
    /// refuses one that cannot start at all.
    func testBinariesThatNeedTheBuildMachinesRuntimeAreCalledOut() throws {
        guard access(binary, X_OK) == 0 else { throw XCTSkip("\(binary) is not built") }
        let root = "/tmp/marquee-install-runtime-\(getpid())"
        defer { _ = system("rm -rf '\(root)'") }
        // The debug build loads libswiftCore.so from the toolchain.
        let debug = installSaying("--root \(root)/a --binary \(binary)")
        XCTAssertEqual(debug.status, 0)
        XCTAssertTrue(debug.said.contains("loads the Swift runtime from"), debug.said)
        XCTAssertTrue(debug.said.contains("--static-swift-stdlib"), debug.said)

        // A program whose library is gone does not start: refused, nothing installed.
        let source = "\(root)/lib"
        XCTAssertEqual(
            system(
                "mkdir -p '\(source)' && cd '\(source)' && echo 'int f(void){return 0;}' > f.c && echo 'int f(void); int main(void){return f();}' > m.c && gcc -shared -fPIC -o libgone.so f.c && gcc -o prog m.c -L. -lgone -Wl,-rpath,'\(source)' && rm libgone.so"
            ), 0)
        let broken = installSaying("--root \(root)/b --binary \(source)/prog")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.said.contains("cannot start on this machine: it needs libgone.so"), broken.said)
        XCTAssertFalse(exists("\(root)/b/usr/local/bin/marquee"))
    }

    func contents(of path: String) -> String {
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
            "/etc/marquee/images/northern.png", "/etc/default/marquee", "/usr/local/share/doc/marquee/deployment.md",
            "/usr/local/share/doc/marquee/raspberry-pi.md", "/var/lib/marquee",
        ] {
            XCTAssertTrue(exists(root + path), path)
        }
        XCTAssertEqual(access(root + "/usr/local/bin/marquee", X_OK), 0)
        // The example deck finds its pictures beside it.
        XCTAssertEqual(system("'\(binary)' check-deck '\(root)/etc/marquee/deck.json' > /dev/null"), 0)
        // Operators in the service's group may put decks where `load` reads them.
        var state = stat()
        XCTAssertEqual(stat(root + "/var/lib/marquee", &state), 0)
        XCTAssertEqual(state.st_mode & 0o777, 0o775)
        // The settings file is valid shell too (a value with a space is quoted).
        XCTAssertEqual(
            system(
                "sh -n '\(root)/etc/default/marquee' && (. '\(root)/etc/default/marquee' && test \"$MARQUEE_BACKEND\" = '--backend drm')"
            ), 0)

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
