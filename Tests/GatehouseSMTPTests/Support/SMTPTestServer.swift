import Foundation
import GatehouseCore
import GatehouseSMTP
import Logging
import Testing

/// `Tests/smtp/smtp_server.py` (aiosmtpd) on an ephemeral loopback port, one per test. Without aiosmtpd
/// the suites that need it are skipped with a note; with `GATEHOUSE_REQUIRE_ALL_SUITES=1` (CI) they fail.
final class SMTPTestServer: @unchecked Sendable {
    /// What the server recorded for one delivered message.
    struct Delivery: Decodable, Equatable {
        var mail_from: String
        var rcpt_tos: [String]
        var auth: String?
        var tls: Bool
    }

    let port: Int
    /// The PEM file of the CA that signed the server's certificate.
    let caFile: String
    let directory: URL
    private let process: Process
    private let input: Pipe
    private let output: Pipe

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("smtp/smtp_server.py")

    static let requireAllSuites = ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1"

    /// Whether python3 can import aiosmtpd and cryptography (checked once).
    static let hasAiosmtpd: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import aiosmtpd, cryptography"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        if process.terminationStatus != 0, !requireAllSuites {
            FileHandle.standardError.write(
                Data("note: SMTP transport suites skipped: python3 module 'aiosmtpd' is not installed (pip install aiosmtpd)\n".utf8)
            )
        }
        return process.terminationStatus == 0
    }()

    /// For `.enabled(if:)`: run when aiosmtpd is here, or when every suite is required (then `start` fails).
    static var isAvailable: Bool { hasAiosmtpd || requireAllSuites }

    /// Starts a server.
    /// - Parameter arguments: `--tls none|starttls|implicit`, `--auth user:password`, `--mechanisms …`.
    static func start(_ arguments: String...) async throws -> SMTPTestServer {
        guard hasAiosmtpd else {
            Issue.record("aiosmtpd is required in CI for the SMTP suites (pip install aiosmtpd)")
            throw CancellationError()
        }
        return try await Task.detached { try SMTPTestServer(arguments) }.value
    }

    private init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path] + arguments
        input = Pipe()
        output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        struct Info: Decodable {
            var port: Int
            var ca: String
            var dir: String
        }
        let line = Self.readLine(output)
        guard let info = try? JSONDecoder().decode(Info.self, from: Data(line.utf8)) else {
            process.terminate()
            throw SMTPTestServerError(message: "smtp_server.py printed no port: \(line)")
        }
        (port, caFile, directory) = (info.port, info.ca, URL(fileURLWithPath: info.dir))
    }

    deinit { stop() }

    /// Closes its standard input (it exits) and waits for it.
    func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A transport for this server.
    /// - Parameters:
    ///   - scheme: `smtp` or `smtps`.
    ///   - credentials: `user:password@`, or empty.
    ///   - query: `?tls=none&timeout=…`, or empty.
    ///   - trusted: Whether the CA file is given.
    func transport(
        _ scheme: String = "smtp",
        credentials: String = "",
        host: String = "localhost",
        query: String = "",
        trusted: Bool = true,
        logger: Logger = Logger(label: "smtp-test")
    ) throws -> SMTPTransport {
        let settings = try SMTPSettings(url: "\(scheme)://\(credentials)\(host):\(port)\(query)", caFile: trusted ? caFile : nil)
        return SMTPTransport(settings: settings, heloName: "client.test", logger: logger)
    }

    /// The messages delivered so far, in order: envelope and the data as received.
    func deliveries() throws -> [(envelope: Delivery, data: [UInt8])] {
        var result: [(Delivery, [UInt8])] = []
        var number = 1
        while let json = try? Data(contentsOf: directory.appendingPathComponent("\(number).json")) {
            let data = try Data(contentsOf: directory.appendingPathComponent("\(number).eml"))
            result.append((try JSONDecoder().decode(Delivery.self, from: json), Array(data)))
            number += 1
        }
        return result
    }

    /// The lines of events.log: "connect", "starttls", "auth PLAIN user ok".
    func events() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("events.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// How many TCP connections the server accepted.
    var connections: Int { events().filter { $0 == "connect" }.count }

    /// Closes every open connection from the server's side.
    /// - Returns: How many it closed.
    func closeConnections() async throws -> Int {
        try input.fileHandleForWriting.write(contentsOf: Data("close\n".utf8))
        let output = output
        let line = await Task.detached { Self.readLine(output) }.value
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    private static func readLine(_ pipe: Pipe) -> String {
        var line = Data()
        while true {
            let byte = pipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}

struct SMTPTestServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A message for the tests: `data` as given, the rest filled in.
func testMail(to recipient: String, data: String = "Subject: hello\r\n\r\nHello.\r\n", id: String = "m1") -> OutgoingMail {
    OutgoingMail(
        id: id,
        kind: "test",
        sender: "noreply@gatehouse.test",
        recipient: recipient,
        data: Array(data.utf8),
        message: MailMessage(kind: "test", to: recipient, subject: "hello", body: "Hello.")
    )
}
