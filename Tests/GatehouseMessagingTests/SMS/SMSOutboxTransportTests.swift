import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import Testing

/// The development SMS outbox: one `.txt` file per message under `<data dir>/sms/`, owner-only, written
/// atomically; one log line without the number or the text; a bad directory refused.
@Suite("SMS outbox transport")
struct SMSOutboxTransportTests {
    static func temporaryDirectory() throws -> URL {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-sms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        return base
    }

    static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    static let message = OutgoingSMS(
        id: "sms-1a2b",
        to: "+447700900123",
        text: "Your Acme code is 482913. It expires in 10 minutes.",
        kind: "phone_sign_in"
    )

    @Test("a message lands as <id>-<kind>.txt (0600) in a 0700 directory, holding the number and the text")
    func writes() async throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let capture = LogCapture()
        let outbox = SMSOutboxTransport(directory: base.appendingPathComponent("sms"), logger: capture.logger())
        try outbox.createDirectory()
        #expect(try Self.mode(outbox.directory) == 0o700)
        try await outbox.send(Self.message)
        let files = try FileManager.default.contentsOfDirectory(atPath: outbox.directory.path)
        #expect(files == ["sms-1a2b-phone_sign_in.txt"], "no temporary file is left behind")
        let file = outbox.directory.appendingPathComponent("sms-1a2b-phone_sign_in.txt")
        #expect(try Self.mode(file) == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == "To: +447700900123\nText: Your Acme code is 482913. It expires in 10 minutes.\n")
        #expect(text == SMSOutboxTransport.contents(of: Self.message))
        #expect(capture.allLines.count == 1 && capture.text.contains("sms-1a2b-phone_sign_in.txt"))
        #expect(!capture.text.contains("482913") && !capture.text.contains("7700900123"), "\(capture.text)")
        #expect(outbox.name == "outbox")
    }

    @Test("sending the same message again replaces its file")
    func replaces() async throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let outbox = SMSOutboxTransport(directory: base.appendingPathComponent("sms"), logger: LogCapture().logger())
        try outbox.createDirectory()
        var message = Self.message
        try await outbox.send(message)
        message.text = "Your Acme code is 111222."
        try await outbox.send(message)
        let files = try FileManager.default.contentsOfDirectory(atPath: outbox.directory.path)
        #expect(files.count == 1)
        let text = try String(contentsOf: outbox.directory.appendingPathComponent(files[0]), encoding: .utf8)
        #expect(text.hasSuffix("Text: Your Acme code is 111222.\n"))
    }

    @Test("a missing directory, or a file where the directory should be, is refused and check() says so")
    func badDirectory() async throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let missing = SMSOutboxTransport(directory: base.appendingPathComponent("absent"), logger: LogCapture().logger())
        await #expect(throws: DeliveryError.self) { try await missing.send(Self.message) }
        do {
            _ = try await missing.check()
            Issue.record("check() passed on a missing directory")
        } catch let error as DeliveryError {
            #expect(error.kind == .permanent && error.detail.contains("missing or not writable"))
        }
        let blocker = base.appendingPathComponent("sms")
        try Data("not a directory".utf8).write(to: blocker)
        let blocked = SMSOutboxTransport(directory: blocker, logger: LogCapture().logger())
        #expect(throws: (any Error).self) { try blocked.createDirectory() }
        do {
            try await blocked.send(Self.message)
            Issue.record("wrote into a file")
        } catch let error as DeliveryError {
            #expect(error.kind == .transient && !error.description.contains("482913"))
        }
        await #expect(throws: DeliveryError.self) { _ = try await blocked.check() }
        let fine = SMSOutboxTransport(directory: base.appendingPathComponent("ok"), logger: LogCapture().logger())
        try fine.createDirectory()
        #expect(try await fine.check() == ["SMS outbox \(fine.directory.path) is writable (messages are written there, not sent)"])
    }

    @Test("an id or kind that would leave the directory is refused before anything is written")
    func unsafeNames() async throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let outbox = SMSOutboxTransport(directory: base.appendingPathComponent("sms"), logger: LogCapture().logger())
        try outbox.createDirectory()
        for (id, kind) in [("../escape", "phone_sign_in"), ("ok", "a/b"), ("", "phone_sign_in"), ("ok", "")] {
            var message = Self.message
            message.id = id
            message.kind = kind
            do {
                try await outbox.send(message)
                Issue.record("accepted id \(id) kind \(kind)")
            } catch let error as DeliveryError {
                #expect(error.kind == .permanent)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.directory.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("escape-phone_sign_in.txt").path))
    }

    @Test("E.164: a plus, a first digit 1 to 9, at most 15 digits")
    func e164() {
        for number in ["+447700900123", "+12025550123", "+861234567890123", "+12"] { #expect(OutgoingSMS.isE164(number), "\(number)") }
        for number in ["447700900123", "+0447700900123", "+1", "+1234567890123456", "+44 7700 900123", "+44-7700", "", "+", "+١٢٣٤٥"] {
            #expect(!OutgoingSMS.isE164(number), "\(number)")
        }
    }

    @Test("an error's description names its kind and status")
    func errorDescription() {
        #expect(
            DeliveryError(.transient, "SNS Publish failed: Throttled", code: 429).description
                == "transient delivery failure (429): SNS Publish failed: Throttled"
        )
        #expect(DeliverySettingsError(variable: "GATEHOUSE_SMS", "must be outbox or sns").description == "GATEHOUSE_SMS: must be outbox or sns")
    }
}
