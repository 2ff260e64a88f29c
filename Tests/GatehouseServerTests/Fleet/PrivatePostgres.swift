import Foundation
import GatehouseTesting
import Synchronization
import Testing

/// A throwaway PostgreSQL cluster of the test's own (Debian's binaries, a temporary directory, a free
/// loopback port), for tests that stop and restart the database: the shared test server stays up for
/// the other suites. Run as the `postgres` user when the tests run as root (initdb refuses root).
final class PrivatePostgres: @unchecked Sendable {
    let directory: URL
    let port: Int
    private let bin: URL
    private let server = Mutex<ChildProcess?>(nil)

    /// Debian's newest installed PostgreSQL, or nil (an issue when every suite must run).
    static func binaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted {
            $0.compare($1, options: .numeric) == .orderedAscending
        }
        for version in versions.reversed() {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) { return bin }
        }
        return nil
    }

    /// Creates and starts the cluster.
    init(bin: URL) async throws {
        self.bin = bin
        directory = URL(fileURLWithPath: "/tmp/gh-fleet-pg-\(UUID().uuidString.prefix(8))")
        port = try FreePort.next()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        _ = try await Self.run(["chown", "postgres", directory.path], asPostgres: false)
        let initdb = try await Self.run(
            [bin.appendingPathComponent("initdb").path, "-D", dataPath, "-A", "trust", "-U", "postgres"],
            asPostgres: true
        )
        guard initdb.status == 0 else { throw ServerProcess.TestFailure("initdb failed: \(initdb.output)") }
        try await start()
    }

    var dataPath: String { directory.appendingPathComponent("data").path }

    /// `postgres://` for the cluster, with Gatehouse's tables in `schema` and the given URL options.
    func url(schema: String, options: String = "") -> String {
        "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=disable&search_path=\(schema)\(options)"
    }

    /// Starts the server as a child process (not through pg_ctl: a daemonising command was seen never
    /// to be reaped, hanging the test).
    func start() async throws {
        let postgres = bin.appendingPathComponent("postgres").path
        let arguments = [postgres, "-D", dataPath, "-p", "\(port)", "-k", directory.path, "-c", "listen_addresses=127.0.0.1"]
        let log = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) { FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        let process = try ChildProcess(
            getuid() == 0 ? Self.asPostgres + arguments : arguments,
            stdout: .descriptor(handle.fileDescriptor),
            stderr: .descriptor(handle.fileDescriptor)
        )
        server.withLock { $0 = process }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let ready = try await PythonScript.execute([bin.appendingPathComponent("pg_isready").path, "-h", "127.0.0.1", "-p", "\(port)"])
            if ready.status == 0 { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerProcess.TestFailure("PostgreSQL did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    /// A fast shutdown (SIGINT): open connections are cut, as in a restart or a failover.
    func stop() async throws {
        guard let process = server.withLock({ $0 }) else { return }
        process.terminate(SIGINT)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        server.withLock { $0 = nil }
    }

    /// Sends `signal` to the server and every process of it (SIGSTOP freezes the cluster, SIGCONT thaws it).
    func signal(_ signal: Int32) async throws {
        guard let process = server.withLock({ $0 }) else { return }
        let pid = process.pid
        let children = try await PythonScript.execute(["pgrep", "-P", "\(pid)"]).output.split(separator: "\n").compactMap { Int32($0) }
        for child in children { kill(child, signal) }
        kill(pid, signal)
    }

    /// One SQL statement through psql; its unaligned, tuples-only output.
    func sql(_ statement: String) async throws -> String {
        let result = try await PythonScript.execute(["psql", "postgres://postgres@127.0.0.1:\(port)/postgres", "-tAc", statement])
        guard result.status == 0 else { throw ServerProcess.TestFailure("psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the cluster and removes its directory.
    func destroy() async {
        try? await stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs as `postgres` in place (setpriv execs; no process in between).
    private static let asPostgres = ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"]

    private static func run(_ command: [String], asPostgres: Bool) async throws -> (status: Int32, output: String) {
        guard asPostgres, getuid() == 0 else { return try await PythonScript.execute(command) }
        return try await PythonScript.execute(Self.asPostgres + command)
    }
}
