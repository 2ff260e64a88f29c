import Foundation
import Testing

@testable import Gatehouse

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real Gatehouse server (the root package's `gatehouse` binary) on an ephemeral loopback port,
/// with its own data directory. Set GATEHOUSE_SERVER_BINARY, or build the root package first
/// (`swift build` at the repository root).
final class GatehouseServerProcess: @unchecked Sendable {
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GATEHOUSE_SERVER_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug/gatehouse")
    }

    /// Whether the end-to-end suite can run; in CI (GATEHOUSE_REQUIRE_ALL_SUITES=1) it always "can",
    /// so a missing binary fails instead of skipping.
    static let isAvailable: Bool = {
        if FileManager.default.isExecutableFile(atPath: binary.path) { return true }
        if ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1" { return true }
        FileHandle.standardError.write(
            Data(
                ("note: GatehouseClient end-to-end suite skipped: no server binary at \(binary.path) "
                    + "(run `swift build` at the repository root or set GATEHOUSE_SERVER_BINARY)\n").utf8
            )
        )
        return false
    }()

    let process = Process()
    let dataDirectory: URL
    let baseURL: URL

    init(environment extra: [String: String] = [:]) throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-sdk-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        process.executableURL = Self.binary
        process.arguments = ["serve"]
        process.currentDirectoryURL = dataDirectory
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        environment.merge([
            "GATEHOUSE_DATA_DIR": dataDirectory.path, "GATEHOUSE_HTTP_HOST": "127.0.0.1", "GATEHOUSE_HTTP_PORT": "0",
            "GATEHOUSE_SCRYPT_LOG_N": "10", "GATEHOUSE_MAIL_COOLDOWN": "1", "GATEHOUSE_LOG_LEVEL": "info",
        ]) { $1 }
        environment.merge(extra) { $1 }
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Read the log until the server says where it listens.
        var buffer = ""
        var port: Int?
        let deadline = Date().addingTimeInterval(60)
        while port == nil, Date() < deadline {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer += String(decoding: chunk, as: UTF8.self)
            if let line = buffer.split(separator: "\n").first(where: { $0.contains("gatehouse listening") }),
                let range = line.range(of: "127.0.0.1:")
            {
                port = Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let port else {
            process.terminate()
            throw ServerFailed(log: buffer)
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        // Keep draining the log so the server never blocks on a full pipe.
        pipe.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    struct ServerFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "the server did not start:\n\(log)" }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// The code in the newest message of `kind` (`confirm_signup`, `reset_password`) mailed to
    /// `email` at or after `since`, from the outbox's .eml files. The server writes mail in the
    /// background just after it answers, so this looks again for up to 10 seconds.
    func latestCode(_ kind: String, for email: String, since: Date) async throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try newestCode(kind, for: email, since: since)
            } catch  where Date() < deadline {
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }
    }

    private func newestCode(_ kind: String, for email: String, since: Date) throws -> String {
        let outbox = dataDirectory.appendingPathComponent("outbox")
        let files = try FileManager.default.contentsOfDirectory(at: outbox, includingPropertiesForKeys: [.contentModificationDateKey])
            .filter { $0.pathExtension == "eml" && $0.lastPathComponent.hasSuffix("-\(kind).eml") }
            .filter {
                ((try? $0.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast)
                    >= since.addingTimeInterval(-0.01)
            }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        for file in files.reversed() {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.lowercased().contains("to: \(email.lowercased())") || text.lowercased().contains("<\(email.lowercased())>") else { continue }
            // The code is in the body (headers such as Message-ID may hold digit runs too).
            let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? text.components(separatedBy: "\n\n").dropFirst().joined()
            if let match = body.range(of: #"\b\d{6}\b"#, options: .regularExpression) { return String(body[match]) }
        }
        throw ServerFailed(log: "no code for \(email) since \(since) in \(files.map(\.lastPathComponent))")
    }

    /// A raw call, for checks the SDK would not make (old tokens, for instance).
    func raw(_ method: String, _ path: String, json: [String: String]? = nil, bearer: String? = nil) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSessionTransportForTests.shared.send(request)
        return (response.statusCode, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }
}

enum URLSessionTransportForTests {
    static let shared = URLSessionTransport()
}
