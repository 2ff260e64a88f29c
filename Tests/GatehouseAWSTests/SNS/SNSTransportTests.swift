import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseAWS

/// The SNS transport against moto's SNS: a message goes out through a signed `Publish` to the number
/// with the transactional SMS type (and the sender id) and moto holds it; a number moto refuses is
/// permanent; an unreachable or silent endpoint is transient; `check()` makes a signed call.
@Suite("SNS (moto): transport", .serialized, .enabled(if: MotoSNS.isAvailable), .tags(.emulator), .enabled(if: TestKind.runs("emulator")))
struct SNSTransportTests {
    static func transport(_ settings: SNSSettings, logger: Logger = Logger(label: "sns-test")) -> SNSTransport {
        SNSTransport(settings: settings, httpClient: HTTPClient.shared, logger: logger)
    }

    /// A fresh number in the UK's drama range (+44 7700 900000–900999), different on each call.
    static func number() -> String { "+447700900\(String(format: "%03d", Int.random(in: 0...999)))" }

    static func message(to number: String) -> OutgoingSMS {
        let code = String(format: "%06d", Int.random(in: 0...999_999))
        return OutgoingSMS(id: "sms-\(UUID().uuidString.prefix(8))", to: number, text: "Your Acme code is \(code).", kind: "phone_sign_in")
    }

    @Test("a message goes out through a signed Publish, Transactional and with the sender id, and moto holds it")
    func sends() async throws {
        let moto = try #require(MotoSNS.shared)
        let capture = LogCapture()
        let transport = Self.transport(moto.settings(senderID: "Acme"), logger: capture.logger())
        let sms = Self.message(to: Self.number())
        try await transport.send(sms)
        let sent = try await moto.sent().filter { $0.message == sms.text }
        try #require(sent.count == 1, "moto holds \(sent.count) messages with the text")
        #expect(sent[0].phoneNumber == sms.to)
        #expect(sent[0].attributes["AWS.SNS.SMS.SMSType"] == ["String", "Transactional"])
        #expect(sent[0].attributes["AWS.SNS.SMS.SenderID"] == ["String", "Acme"])
        let scope = "Credential=AKIAIOSFODNN7EXAMPLE/"
        #expect(sent[0].authorization.hasPrefix("AWS4-HMAC-SHA256 \(scope)") && sent[0].authorization.contains("/us-east-1/sns/aws4_request"))
        #expect(sent[0].authorization.contains("Signature=") && !sent[0].authorization.contains("wJalrXUtnFEMI"))
        #expect(capture.text.contains(sent[0].messageID) && !capture.text.contains(sms.text) && !capture.text.contains(sms.to), "\(capture.text)")
    }

    @Test("without a sender id only the SMS type is sent; text with &, +, line breaks and non-ASCII arrives unchanged")
    func encoding() async throws {
        let moto = try #require(MotoSNS.shared)
        var sms = Self.message(to: Self.number())
        sms.text = "Zoë's code: 123 456 & 7+8=15\nGültig 10 Min. — \(UUID().uuidString.prefix(6)) 🔐"
        try await Self.transport(moto.settings()).send(sms)
        let sent = try await moto.sent().filter { $0.phoneNumber == sms.to && $0.message == sms.text }
        try #require(sent.count == 1)
        #expect(sent[0].attributes.keys.sorted() == ["AWS.SNS.SMS.SMSType"])
    }

    @Test("a number moto refuses (not E.164) is a permanent failure whose detail names the error, not the number")
    func refusedNumber() async throws {
        let moto = try #require(MotoSNS.shared)
        let before = try await moto.sent().count
        for number in ["+0447700900123", "447700900123abc"] {
            do {
                try await Self.transport(moto.settings()).send(Self.message(to: number))
                Issue.record("moto accepted \(number)")
            } catch let error as DeliveryError {
                #expect(error.kind == .permanent && error.code == 400, "\(error)")
                #expect(error.detail.contains("InvalidParameter") && !error.detail.contains("7700900123"), "\(error.detail)")
            }
        }
        #expect(try await moto.sent().count == before)
    }

    @Test("a text over SNS's 1600 bytes is refused as permanent")
    func tooLong() async throws {
        let moto = try #require(MotoSNS.shared)
        var sms = Self.message(to: Self.number())
        sms.text = String(repeating: "x", count: 1700)
        do {
            try await Self.transport(moto.settings()).send(sms)
            Issue.record("moto accepted 1700 characters")
        } catch let error as DeliveryError {
            #expect(error.kind == .permanent && error.detail.contains("1600"), "\(error)")
        }
    }

    @Test("a refused connection and a silent endpoint are transient failures")
    func unreachable() async throws {
        let refused = SNSSettings(
            region: "us-east-1",
            endpoint: "http://127.0.0.1:1",
            credentials: .init(accessKeyID: "AKIAX", secretAccessKey: "s"),
            timeout: .seconds(1)
        )
        let sms = Self.message(to: Self.number())
        do {
            try await Self.transport(refused).send(sms)
            Issue.record("a refused connection did not fail")
        } catch let error as DeliveryError {
            #expect(error.kind == .transient && error.detail.contains("cannot reach 127.0.0.1:1"), "\(error)")
            #expect(!error.detail.contains(sms.to) && !error.detail.contains(sms.text))
        }
        let silent = try SilentListener()
        defer { silent.close() }
        var settings = refused
        settings.endpoint = "http://127.0.0.1:\(silent.port)"
        settings.timeout = .milliseconds(300)
        do {
            try await Self.transport(settings).send(sms)
            Issue.record("a silent endpoint did not time out")
        } catch let error as DeliveryError {
            #expect(error.kind == .transient && error.detail.contains("no answer"), "\(error)")
        }
    }

    @Test("check() makes a signed GetSMSAttributes call and reports the region, endpoint, key and sender id")
    func check() async throws {
        let moto = try #require(MotoSNS.shared)
        let lines = try await Self.transport(moto.settings(senderID: "Acme")).check()
        #expect(lines.first == "SNS us-east-1 reachable at \(moto.endpoint), signed as AKIA…MPLE", "\(lines)")
        #expect(lines.contains("sender id Acme (shown where the country supports one)"))
        #expect(!lines.joined().contains("wJalrXUtnFEMI"))
        var unreachable = moto.settings()
        unreachable.endpoint = "http://127.0.0.1:1"
        unreachable.timeout = .seconds(1)
        await #expect(throws: DeliveryError.self) { _ = try await Self.transport(unreachable).check() }
    }
}
