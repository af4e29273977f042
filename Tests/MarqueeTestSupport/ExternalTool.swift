import Foundation
import XCTest

/// Runs a command-line tool installed by tools/install-dependencies (`hb-shape`, `fribidi`) as an
/// independent oracle, and returns its standard output. A missing tool fails the test with the
/// package to install: the oracle is part of the test, not optional.
public enum ExternalTool {
    public static func run(_ path: String, _ arguments: [String], package: String) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            XCTFail("\(path) is missing: run tools/install-dependencies (Debian package \(package))")
            throw XCTSkip("\(path) is missing")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("\(path) \(arguments) exited with \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
