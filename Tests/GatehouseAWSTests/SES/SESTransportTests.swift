import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseTesting
import Logging
import NIOCore
import Testing

@testable import GatehouseAWS

#if canImport(Glibc)
import Glibc
#endif

/// The SES transport against moto's SES: a rendered message goes out through `SendEmail` (raw) and
/// comes back from moto byte for byte; an unverified sender is permanent; an unreachable or silent
/// endpoint is transient; `check()` makes a signed call.
@Suite("SES (moto): transport", .serialized, .enabled(if: MotoSES.isAvailable), .tags(.emulator), .enabled(if: TestKind.runs("emulator")))
struct SESTransportTests {
    static let logger = Logger(label: "ses-test")

    static func transport(_ settings: SESSettings) -> SESTransport {
        SESTransport(settings: settings, httpClient: HTTPClient.shared, logger: logger)
    }

    /// Verifies `address` in moto with a signed v2 `CreateEmailIdentity` through the transport's own client.
    static func verify(_ address: String, on transport: SESTransport) async throws {
        let body = JSONValue.object(["EmailIdentity": .string(address)]).serialized()
        let answer = try await transport.call("POST", "/v2/email/identities", body: body, operation: "CreateEmailIdentity")
        #expect(answer.status == 200, "CreateEmailIdentity answered \(answer.status) \(answer.errorType ?? "")")
    }

    static func render(from sender: String, to recipient: String) throws -> OutgoingMail {
        let renderer = try MailRenderer(appName: "Acme", from: "Acme Accounts <\(sender)>", replyTo: "help@acme.example")
        let request = MailRequest(kind: .confirmSignUp, to: recipient, name: "Zoë", code: "482913", lifetime: 900)
        return try renderer.render(request, id: "ses-\(UUID().uuidString.prefix(8))", date: Date())
    }

    @Test("a rendered message goes out through SendEmail and moto holds it byte for byte")
    func sends() async throws {
        let moto = try #require(MotoSES.shared)
        let transport = Self.transport(moto.settings(configurationSet: "gatehouse-events"))
        let sender = "no-reply-\(UUID().uuidString.prefix(8).lowercased())@acme.example"
        let recipient = "zoe-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try await Self.verify(sender, on: transport)
        let mail = try Self.render(from: sender, to: recipient)
        try await transport.send(mail)
        let sent = try await moto.sent().filter { $0.source == sender }
        try #require(sent.count == 1, "moto holds \(sent.count) messages from the sender")
        #expect(sent[0].raw == String(decoding: mail.data, as: UTF8.self))
        #expect(sent[0].destinations.contains(recipient))
        #expect(sent[0].raw.contains("Message-ID: <\(mail.id)@acme.example>") && sent[0].raw.contains("multipart/alternative"))
    }

    @Test("an unverified sender is a permanent failure whose detail names SES's error, not the recipient")
    func unverifiedSender() async throws {
        let moto = try #require(MotoSES.shared)
        let transport = Self.transport(moto.settings())
        let recipient = "victim-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let mail = try Self.render(from: "unverified-\(UUID().uuidString.prefix(8).lowercased())@acme.example", to: recipient)
        do {
            try await transport.send(mail)
            Issue.record("moto accepted mail from an unverified sender")
        } catch let error as DeliveryError {
            #expect(error.kind == .permanent && error.code == 400)
            #expect(error.detail.contains("MessageRejected") && !error.detail.contains(recipient), "\(error.detail)")
        }
    }

    @Test("a refused connection and a silent endpoint are transient failures")
    func unreachable() async throws {
        // The client retries a refused connection until the call's deadline, then reports the connection error.
        let refused = SESSettings(
            region: "us-east-1",
            endpoint: "http://127.0.0.1:1",
            credentials: .init(accessKeyID: "AKIAX", secretAccessKey: "s"),
            timeout: .seconds(1)
        )
        let mail = try Self.render(from: "a@acme.example", to: "b@example.com")
        do {
            try await Self.transport(refused).send(mail)
            Issue.record("a refused connection did not fail")
        } catch let error as DeliveryError {
            #expect(error.kind == .transient && error.detail.contains("cannot reach 127.0.0.1:1"), "\(error)")
        }
        let silent = try SilentListener()
        defer { silent.close() }
        var settings = refused
        settings.endpoint = "http://127.0.0.1:\(silent.port)"
        settings.timeout = .milliseconds(300)
        do {
            try await Self.transport(settings).send(mail)
            Issue.record("a silent endpoint did not time out")
        } catch let error as DeliveryError {
            #expect(error.kind == .transient && error.detail.contains("no answer"), "\(error)")
        }
    }

    @Test("check() makes a signed call and reports the region, endpoint, key and configuration set")
    func check() async throws {
        let moto = try #require(MotoSES.shared)
        let lines = try await Self.transport(moto.settings()).check()
        #expect(lines.first?.hasPrefix("SES us-east-1 reachable at \(moto.endpoint), signed as AKIA…MPLE") == true, "\(lines)")
        #expect(!lines.joined().contains("wJalrXUtnFEMI"))
        let withSet = Self.transport(moto.settings(configurationSet: "gatehouse-missing"))
        do {
            _ = try await withSet.check()
            Issue.record("a missing configuration set passed the check")
        } catch let error as DeliveryError {
            #expect(error.kind == .permanent && error.detail.contains("GetConfigurationSet gatehouse-missing") && error.detail.contains("NotFound"))
        }
        let created = JSONValue.object(["ConfigurationSetName": "gatehouse-present"]).serialized()
        _ = try await withSet.call("POST", "/v2/email/configuration-sets", body: created, operation: "CreateConfigurationSet")
        let present = try await Self.transport(moto.settings(configurationSet: "gatehouse-present")).check()
        #expect(present.contains("configuration set gatehouse-present exists"))
    }
}

/// A loopback socket that accepts connections (the kernel's backlog) and never answers.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 8) == 0 else { throw GatehouseError.internalError(cause: "cannot listen on loopback") }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
