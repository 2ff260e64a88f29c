import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP
import Logging
import Testing

/// `Tests/smtp/smtp_server.py` (aiosmtpd) on an ephemeral loopback port, one per test. Without aiosmtpd
/// the suites that need it are skipped with a note; with `GATEHOUSE_REQUIRE_ALL_SUITES=1` (CI) they fail.
public final class SMTPTestServer: @unchecked Sendable {
    /// What the server recorded for one delivered message.
    public struct Delivery: Decodable, Equatable, Sendable {
        /// The envelope sender (`MAIL FROM`).
        public var mail_from: String
        /// The envelope recipients (`RCPT TO`).
        public var rcpt_tos: [String]
        /// The user that authenticated, if any.
        public var auth: String?
        /// Whether the message came over TLS.
        public var tls: Bool

        /// A record, for comparisons.
        /// - Parameters:
        ///   - mail_from: The envelope sender.
        ///   - rcpt_tos: The envelope recipients.
        ///   - auth: The authenticated user, if any.
        ///   - tls: Whether TLS was on.
        public init(mail_from: String, rcpt_tos: [String], auth: String?, tls: Bool) {
            (self.mail_from, self.rcpt_tos, self.auth, self.tls) = (mail_from, rcpt_tos, auth, tls)
        }
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// The PEM file of the CA that signed the server's certificate.
    public let caFile: String
    /// Where it writes the delivered messages (removed when it stops).
    public let directory: URL
    private let process: ChildProcess
    /// The write end of its standard input: closing it stops the server.
    private let input: FileHandle
    /// The read end of its standard output (its first line, then its answers to `close`).
    private let output: FileHandle

    /// `Tests/smtp/smtp_server.py`, found from this file's place in the repository.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/smtp/smtp_server.py")

    static let requireAllSuites = ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_ALL_SUITES"] == "1"

    /// Whether python3 can import aiosmtpd and cryptography (checked once).
    public static let hasAiosmtpd: Bool = {
        let available = (try? ChildProcess(["python3", "-c", "import aiosmtpd, cryptography"]))?.waitUntilExit() == 0
        if !available, !requireAllSuites {
            FileHandle.standardError.write(
                Data("note: SMTP transport suites skipped: python3 module 'aiosmtpd' is not installed (pip install aiosmtpd)\n".utf8)
            )
        }
        return available
    }()

    /// For `.enabled(if:)`: run when aiosmtpd is here, or when every suite is required (then `start` fails).
    public static var isAvailable: Bool { hasAiosmtpd || requireAllSuites }

    /// Starts a server.
    /// - Parameter arguments: `--tls none|starttls|implicit`, `--auth user:password`, `--mechanisms …`,
    ///   `--delay seconds`, `--hang` (see the script).
    /// - Returns: The running server; it stops when released or at ``stop()``.
    /// - Throws: When aiosmtpd is missing (after recording an issue) or the script printed no port.
    public static func start(_ arguments: String...) async throws -> SMTPTestServer {
        guard hasAiosmtpd else {
            Issue.record("aiosmtpd is required in CI for the SMTP suites (pip install aiosmtpd)")
            throw CancellationError()
        }
        return try await Task.detached { try SMTPTestServer(arguments) }.value
    }

    private init(_ arguments: [String]) throws {
        let inputPipe = try ChildProcess.pipe()
        let outputPipe = try ChildProcess.pipe()
        process = try ChildProcess(
            ["python3", Self.script.path] + arguments,
            stdin: .descriptor(inputPipe.read),
            stdout: .descriptor(outputPipe.write)
        )
        close(inputPipe.read)
        close(outputPipe.write)
        input = FileHandle(fileDescriptor: inputPipe.write, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: outputPipe.read, closeOnDealloc: true)
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
    public func stop() {
        guard process.isRunning else { return }
        try? input.close()
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A transport for this server.
    /// - Parameters:
    ///   - scheme: `smtp` or `smtps`.
    ///   - credentials: `user:password@`, or empty.
    ///   - host: The host name the transport connects to (`localhost` matches the certificate).
    ///   - query: `?tls=none&timeout=…`, or empty.
    ///   - trusted: Whether the CA file is given.
    ///   - logger: The transport's logger.
    /// - Returns: A transport for this server.
    /// - Throws: ``DeliverySettingsError`` when the URL the parameters make is not valid.
    public func transport(
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
    /// - Returns: One entry per delivered message.
    /// - Throws: When a recorded file cannot be read or decoded.
    public func deliveries() throws -> [(envelope: Delivery, data: [UInt8])] {
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
    public func events() -> [String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("events.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits until events.log has a line starting with `prefix` (the server writes it from another process,
    /// so this looks every 20 ms).
    /// - Parameters:
    ///   - prefix: The start of the line, like `hang rcpt`.
    ///   - timeout: How long to wait at most.
    /// - Throws: ``SMTPTestServerError`` when no such line appeared in time.
    public func waitForEvent(_ prefix: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !events().contains(where: { $0.hasPrefix(prefix) }) {
            guard ContinuousClock.now < deadline else { throw SMTPTestServerError(message: "no '\(prefix)' event within \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// How many TCP connections the server accepted.
    public var connections: Int { events().filter { $0 == "connect" }.count }

    /// Closes every open connection from the server's side.
    /// - Returns: How many it closed.
    /// - Throws: When the script's standard input is closed.
    public func closeConnections() async throws -> Int {
        try input.write(contentsOf: Data("close\n".utf8))
        let output = output
        let line = await Task.detached { Self.readLine(output) }.value
        return Int(line.split(separator: " ").last ?? "") ?? -1
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var line = Data()
        while true {
            let byte = handle.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }
}

/// The test SMTP server could not be started.
public struct SMTPTestServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }

    /// An error saying `message`.
    /// - Parameter message: What went wrong.
    public init(message: String) { self.message = message }
}
