import Foundation
import GatehouseTesting
import Testing

/// Runs one of the Python helper scripts beside the tests. Locally a missing interpreter or module
/// skips the check with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) it fails.
///
/// The process is waited for on a thread of its own, never on one of Swift concurrency's few
/// threads: a script that talks to the server under test needs those threads free to answer it
/// (with them blocked, a busy test run deadlocked until the script's timeout).
enum PythonScript {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts")

    /// `nil` when Python or `module` is unavailable here (and that is allowed).
    static func run(_ script: String, arguments: [String], requiring module: String) async throws -> (status: Int32, output: String)? {
        guard available(module) else {
            if TestDatabase.requireAllSuites {
                Issue.record("python3 with '\(module)' is required in CI (pip install \(module))")
            } else {
                FileHandle.standardError.write(Data("note: skipped \(script): python3 module '\(module)' is not installed\n".utf8))
            }
            return nil
        }
        return try await execute(["python3", directory.appendingPathComponent(script).path] + arguments)
    }

    /// Whether python3 can import `module` (a short local check, fine to wait for in place).
    static func available(_ module: String) -> Bool {
        (try? executeBlocking(["python3", "-c", "import \(module)"]))?.status == 0
    }

    static func execute(_ command: [String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try executeBlocking(command) })
            }
        }
    }

    private static func executeBlocking(_ command: [String]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(command)
    }
}
