import Glibc
import MarqueeCore
import MarqueeRuntime
import XCTest

final class PathPolicyTests: XCTestCase {
    var root = ""
    var outside = ""

    override func setUpWithError() throws {
        let base = SessionHarness.scratch + "/paths-\(UInt32.random(in: 0...UInt32.max))"
        root = base + "/allowed"
        outside = base + "/secret"
        mkdir(base, 0o755)
        mkdir(root, 0o755)
        mkdir(root + "/sub", 0o755)
        mkdir(outside, 0o755)
        SessionHarness.writeFile(outside + "/deck.json", #"{"sections": []}"#)
        SessionHarness.writeFile(root + "/deck.json", #"{"sections": [{"cards": [{"id": "inside"}]}]}"#)
        symlink(outside, root + "/escape")
        symlink(outside + "/deck.json", root + "/link.json")
    }

    func testReadsStayInside() throws {
        let policy = try PathPolicy(directory: root)
        XCTAssertNoThrow(try policy.checkRead(root + "/deck.json"))
        XCTAssertNoThrow(try policy.checkRead(root + "/sub/../deck.json"))
        for path in [
            outside + "/deck.json", root + "/../secret/deck.json", root + "/escape/deck.json", root + "/link.json",
            "/etc/passwd",
        ] {
            XCTAssertThrowsError(try policy.checkRead(path), path) {
                XCTAssertTrue("\($0)".contains("outside") || "\($0)".contains("No such"))
            }
        }
    }

    /// A missing file outside the root gets the same answer as an existing one ("outside"), so
    /// a controller cannot probe which files exist there; a missing file inside is "No such file".
    func testAMissingFileOutsideIsOutsideToo() throws {
        let policy = try PathPolicy(directory: root)
        for path in [
            outside + "/missing.png", "/etc/marquee-no-such-file", root + "/../secret/missing.png",
            root + "/escape/missing.png", "/no-such-folder/x/y.png",
        ] {
            XCTAssertThrowsError(try policy.checkRead(path), path) {
                XCTAssertTrue("\($0)".contains("is outside"), "\(path): \($0)")
            }
        }
        for path in [root + "/missing.png", root + "/sub/missing.png", root + "/no-folder/missing.png"] {
            XCTAssertThrowsError(try policy.checkRead(path), path) {
                XCTAssertTrue("\($0)".contains("No such file"), "\(path): \($0)")
            }
        }
    }

    func testWritesStayInside() throws {
        let policy = try PathPolicy(directory: root)
        XCTAssertEqual(try policy.checkWrite(root + "/sub/a.png"), root + "/sub/a.png")
        for path in [outside + "/a.png", root + "/../a.png", root + "/escape/a.png", root + "/..", "/tmp/a.png"] {
            XCTAssertThrowsError(try policy.checkWrite(path), path)
        }
        XCTAssertEqual(try PathPolicy.unrestricted.checkWrite("/tmp/x.png"), "/tmp/x.png")
        XCTAssertThrowsError(try PathPolicy(directory: root + "/deck.json")) {
            XCTAssertTrue("\($0)".contains("not a directory"))
        }
    }

    func testSessionRefusesPathsOutside() throws {
        let script = """
            load \(outside)/deck.json
            load \(root)/escape/deck.json
            snapshot \(outside)/a.png
            snapshot \(root)/../a.png
            snapshot \(root)/sub/ok.png
            load \(root)/deck.json
            wait idle
            """
        let run = try SessionHarness.run(script, configure: { $0.restrictPaths = self.root })
        let replies = run.replies.filter { $0["event"] == nil }
        XCTAssertEqual(replies.map { $0["ok"]?.bool }, [false, false, false, false, true, true, true])
        XCTAssertTrue(replies[0]["error"]!.string!.contains("outside"))
        XCTAssertEqual(access(outside + "/a.png", F_OK), -1, "nothing was written outside")
        XCTAssertEqual(access(root + "/sub/ok.png", F_OK), 0)
    }
}
