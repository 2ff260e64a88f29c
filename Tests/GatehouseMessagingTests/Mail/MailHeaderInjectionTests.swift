import Foundation
import GatehouseCore
import Testing

@testable import GatehouseMessaging

/// CR/LF in every value that reaches a header: settings are refused at start, a bad recipient or id at
/// render time, and the rest is made one line so the header block holds exactly the expected fields.
@Suite("Mail MIME: header injection")
struct MailHeaderInjectionTests {
    static let payloads = [
        "\r\nBcc: x@evil.example", "\nBcc: x@evil.example", "\rBcc: x@evil.example", "\r\n\r\nBcc: x@evil.example", "\u{85}Bcc: x@evil.example",
    ]
    static let expected = [
        "From", "To", "Reply-To", "Subject", "Date", "Message-ID", "MIME-Version", "Auto-Submitted", "X-Gatehouse-Kind", "Content-Type",
    ]
    static let date = Date(timeIntervalSince1970: 1_795_000_000)

    static func render(
        appName: String = "Acme",
        name: String? = "Alice",
        code: String = "123456",
        to: String = "alice@example.com",
        id: String = "m1"
    ) throws -> ParsedMail {
        let renderer = try MailRenderer(appName: appName, from: "Acme <no-reply@acme.example>", replyTo: "help@acme.example")
        let request = MailRequest(kind: .confirmSignUp, to: to, name: name, code: code, lifetime: 900)
        return try ParsedMail(renderer.render(request, id: id, date: date).data)
    }

    static func expectCleanHeaders(_ mail: ParsedMail) {
        #expect(mail.headerNames == expected, "headers: \(mail.headerNames)")
        #expect(!mail.headerBlock.replacingOccurrences(of: "\r\n", with: "").contains { $0 == "\r" || $0 == "\n" }, "CR and LF only as CRLF")
        #expect(!mail.headerBlock.lowercased().contains("\r\nbcc"))
        for name in expected { #expect(mail.headerNames.filter { $0 == name }.count == 1) }
    }

    @Test("the From name, From address and Reply-To settings are refused at start", arguments: payloads)
    func settings(_ payload: String) {
        #expect(throws: DeliverySettingsError(variable: "GATEHOUSE_MAIL_FROM", "")) {
            try Self.settingsError { try MailRenderer(appName: "A", from: "Acme\(payload) <a@acme.example>") }
        }
        #expect(throws: DeliverySettingsError(variable: "GATEHOUSE_MAIL_FROM", "")) {
            try Self.settingsError { try MailRenderer(appName: "A", from: "a@acme.example\(payload)") }
        }
        #expect(throws: DeliverySettingsError(variable: "GATEHOUSE_MAIL_FROM", "")) {
            try Self.settingsError { try MailRenderer(appName: "A", from: "Acme <a@acme.example\(payload)>") }
        }
        #expect(throws: DeliverySettingsError(variable: "GATEHOUSE_MAIL_REPLY_TO", "")) {
            try Self.settingsError { try MailRenderer(appName: "A", from: "a@acme.example", replyTo: "help@acme.example\(payload)") }
        }
        #expect(throws: DeliverySettingsError(variable: "GATEHOUSE_MAIL_REPLY_TO", "")) {
            try Self.settingsError { try MailRenderer(appName: "A", from: "a@acme.example", replyTo: "Help\(payload) <help@acme.example>") }
        }
    }

    @Test("a recipient or message id with a line break is refused when rendering (permanent)", arguments: payloads)
    func recipientAndID(_ payload: String) {
        for attempt in [{ _ = try Self.render(to: "alice@example.com\(payload)") }, { _ = try Self.render(id: "m1\(payload)") }] {
            do {
                try attempt()
                Issue.record("rendered a message with a line break in a header value")
            } catch let error as DeliveryError {
                #expect(error.kind == .permanent && !error.detail.contains("evil"))
            } catch {
                Issue.record("unexpected error \(error)")
            }
        }
    }

    @Test("the app name, display name and code are kept on one line", arguments: payloads)
    func renderedValues(_ payload: String) throws {
        Self.expectCleanHeaders(try Self.render(appName: "Acme\(payload)"))
        Self.expectCleanHeaders(try Self.render(name: "Alice\(payload)"))
        let withCode = try Self.render(code: "123456\(payload)")
        Self.expectCleanHeaders(withCode)
        #expect(withCode.header("Subject")?.contains("Bcc: x@evil.example") == true, "the payload is only text in the subject")
    }

    /// Runs `body` and rethrows a ``DeliverySettingsError`` with its message blanked, so tests compare the variable.
    static func settingsError(_ body: () throws -> MailRenderer) throws {
        do {
            _ = try body()
        } catch let error as DeliverySettingsError {
            throw DeliverySettingsError(variable: error.variable, "")
        }
    }
}
