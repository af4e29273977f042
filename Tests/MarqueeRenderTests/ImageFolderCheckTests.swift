import Foundation
import XCTest

@testable import MarqueeRender

/// With `--restrict-paths`, a picture's path is checked when it is resolved, and the file is opened
/// later on a worker: a folder on the path swapped for a symlink in between led the read outside
/// (a picture from outside the folder was shown). The file actually opened is now checked too.
final class ImageFolderCheckTests: XCTestCase {
    func testAFileOpenedOutsideTheReadableFoldersIsRefused() throws {
        let files = try ImageTestFiles()
        let picture = ImageTestFiles.Picture(width: 4, height: 4) { _, _ in (0, 255, 0, 255) }
        let allowed = files.folder + "/allowed", outside = files.folder + "/outside"
        for folder in [allowed, outside] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let inside = try files.write(picture, as: "allowed/in.png")
        _ = try files.write(picture, as: "outside/out.png")
        // What the swap leaves: a folder inside that is now a symlink to one outside.
        try FileManager.default.createSymbolicLink(atPath: allowed + "/sub", withDestinationPath: outside)
        let folders = [try XCTUnwrap(realpath(allowed, nil).map { String(cString: $0) })]

        if case .failure(let error) = ImageFile.read(inside, maximumBytes: 1 << 20, within: folders).0 {
            XCTFail("a picture inside is read: \(error.message)")
        }
        guard
            case .failure(let error) = ImageFile.read(allowed + "/sub/out.png", maximumBytes: 1 << 20, within: folders)
                .0
        else { return XCTFail("a picture reached through a symlink out of the folder was read") }
        XCTAssertTrue(error.message.contains("--restrict-paths"), error.message)
        // Unrestricted, symlinks are the operator's to use.
        if case .failure(let error) = ImageFile.read(allowed + "/sub/out.png", maximumBytes: 1 << 20).0 {
            XCTFail("unrestricted, the symlinked picture is read: \(error.message)")
        }
    }
}
