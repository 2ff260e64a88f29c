import Foundation
import GatehouseTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real `gatehouse` binary, run as a child process on an ephemeral loopback port (for what only a
/// process can show: `kill -9` and a restart). Its log goes to a file beside its data directory.
final class ServerProcess: @unchecked Sendable {
    let process: ChildProcess
    let log: URL
    private(set) var port = 0

    /// `.build/debug/gatehouse` beside the test bundle, or `GATEHOUSE_SERVER_BINARY`.
    static var binary: URL? {
        if let path = ProcessInfo.processInfo.environment["GATEHOUSE_SERVER_BINARY"] { return URL(fileURLWithPath: path) }
        let candidate = Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("gatehouse")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gatehouse")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : nil
    }

    /// The binary, or nil with a note (an issue in CI, where it must exist).
    static func requireBinary() -> URL? {
        if let binary { return binary }
        if TestDatabase.requireAllSuites {
            Issue.record("the gatehouse binary was not found beside the tests (swift build --product gatehouse)")
        } else {
            FileHandle.standardError.write(Data("note: skipped: build the gatehouse binary first (swift build --product gatehouse)\n".utf8))
        }
        return nil
    }

    /// Starts the server and waits until it listens.
    init(binary: URL, dataDirectory: URL, environment: [String: String], name: String) async throws {
        log = dataDirectory.deletingLastPathComponent().appendingPathComponent("\(name).log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: log.path, contents: nil)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        env.merge(environment) { $1 }
        env["GATEHOUSE_LOG_LEVEL"] = env["GATEHOUSE_LOG_LEVEL"] ?? "info"
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process = try ChildProcess(
            [binary.path, "serve", "--data-dir", dataDirectory.path, "--port", "0", "--host", "127.0.0.1", "--env-file", "/nonexistent"],
            environment: env,
            stdout: .descriptor(handle.fileDescriptor),
            stderr: .descriptor(handle.fileDescriptor)
        )
        // Bounds a failure only: on a loaded machine (a full parallel run on two cores) a start can take tens of seconds.
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if let text = try? String(contentsOf: log, encoding: .utf8),
                let range = text.range(of: #"gatehouse listening address=127\.0\.0\.1:(\d+)"#, options: .regularExpression)
            {
                port = Int(text[range].split(separator: ":").last ?? "") ?? 0
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill()
        throw TestFailure("the server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// `kill -9`: no shutdown, no flush, no goodbye.
    func kill() {
        process.terminate(SIGKILL)
        process.waitUntilExit()
    }

    /// Sends a JSON POST and returns the status.
    func post(_ path: String, _ body: [String: String]) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
