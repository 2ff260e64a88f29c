import Foundation
import GatehouseTesting
import Testing

/// Runs one of the Python helper scripts beside the tests. Locally a missing interpreter or module
/// skips the check with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) it fails.
enum PythonScript {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts")

    /// `nil` when Python or `module` is unavailable here (and that is allowed).
    static func run(_ script: String, arguments: [String], requiring module: String) throws -> (status: Int32, output: String)? {
        guard available(module) else {
            if TestDatabase.requireAllSuites {
                Issue.record("python3 with '\(module)' is required in CI (pip install \(module))")
            } else {
                FileHandle.standardError.write(Data("note: skipped \(script): python3 module '\(module)' is not installed\n".utf8))
            }
            return nil
        }
        return try execute(["python3", directory.appendingPathComponent(script).path] + arguments)
    }

    static func available(_ module: String) -> Bool {
        (try? execute(["python3", "-c", "import \(module)"]))?.status == 0
    }

    static func execute(_ command: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
