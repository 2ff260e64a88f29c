import Foundation
import Testing

extension PythonServer {
    /// Starts a test process's shared emulator (moto's Cognito, SES or SNS) once python3 can import
    /// `modules`. Without them the suite is skipped with a note, or fails when every suite must run
    /// (`GATEHOUSE_REQUIRE_ALL_SUITES=1`, as in CI); a failed start is an issue either way.
    /// - Parameters:
    ///   - service: What the emulator stands for, for the messages (`SES`, `SNS`, `Cognito`).
    ///   - modules: The Python modules it needs, comma-separated.
    ///   - start: Starts it.
    /// - Returns: The emulator, or `nil`.
    public static func emulator<T>(_ service: String, needs modules: String, start: () throws -> T) -> T? {
        guard canImport(modules) else {
            if TestDatabase.requireAllSuites {
                Issue.record("moto is required in CI for the \(service) suites (pip install 'moto[server]')")
            } else {
                FileHandle.standardError.write(
                    Data("note: \(service) (moto) suites skipped: python3 module 'moto' is not installed (pip install 'moto[server]')\n".utf8)
                )
            }
            return nil
        }
        do {
            return try start()
        } catch {
            Issue.record("could not start the moto \(service) emulator: \(error)")
            return nil
        }
    }

    /// Whether python3 can import `modules` (a comma-separated list).
    /// - Parameter modules: The modules.
    /// - Returns: Whether the import succeeded.
    public static func canImport(_ modules: String) -> Bool {
        (try? ChildProcess(["python3", "-c", "import \(modules)"]))?.waitUntilExit() == 0
    }
}
