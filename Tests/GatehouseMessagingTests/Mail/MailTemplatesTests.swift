import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

@testable import GatehouseMessaging

@Suite("Mail templates")
struct MailTemplatesTests {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)

    static func request(_ kind: MailRequest.Kind, name: String? = "Alice", confirmed: Bool = true, reset: Bool = false) -> MailRequest {
        let code: String? = [.confirmSignUp, .resetPassword, .confirmEmailChange].contains(kind) ? "123456" : nil
        let lifetimes: [MailRequest.Kind: Int] = [.confirmSignUp: 86_400, .resetPassword: 900, .confirmEmailChange: 3600]
        let address: String? = kind == .emailChanged ? "b***@e***.com" : nil
        return MailRequest(
            kind: kind,
            to: "alice@example.com",
            name: name,
            code: code,
            lifetime: lifetimes[kind],
            confirmed: confirmed,
            reset: reset,
            address: address
        )
    }

    static func renderer(replyTo: String? = nil, templates: String? = nil) throws -> MailRenderer {
        try MailRenderer(appName: "Acme", from: "Acme Accounts <no-reply@acme.example>", replyTo: replyTo, templatesDirectory: templates)
    }

    @Test("every kind renders from the built-in templates: subject, greeting, both parts, signature", arguments: MailRequest.Kind.allCases)
    func everyKind(_ kind: MailRequest.Kind) throws {
        let mail = try Self.renderer().render(Self.request(kind), id: "m1", date: Self.date)
        let message = mail.message
        #expect(message.subject.contains("Acme") && !message.subject.contains("\n"))
        #expect(message.body.hasPrefix("Hello Alice,\n\n"))
        #expect(message.body.contains("— The Acme team"))
        let html = try #require(message.html)
        #expect(html.contains("Hello Alice,") && html.contains("The Acme team") && html.hasPrefix("<!DOCTYPE html>"))
        #expect(!message.body.contains("{{") && !html.contains("{{") && !message.subject.contains("{{"))
        switch kind {
        case .confirmSignUp, .resetPassword, .confirmEmailChange:
            #expect(CapturingMailer.code(in: message.body) == "123456", "the code stands alone on an indented line")
            #expect(message.body.contains("\n    123456\n"))
            #expect(html.contains("monospace") && html.contains(">123456</td>"), "the code is big, monospace, in its own block")
            let lifetime = [MailRequest.Kind.confirmSignUp: "24 hours", .resetPassword: "15 minutes", .confirmEmailChange: "1 hour"][kind] ?? ""
            #expect(message.body.contains("expires in \(lifetime)"))
            #expect(html.contains("<strong>\(lifetime)</strong>"))
        case .alreadyRegistered, .passwordChanged, .emailChanged, .emailInUse, .test:
            #expect(CapturingMailer.code(in: message.body) == nil, "a notice carries no code")
        }
        #expect(["not you", "did not", "If it was not"].contains { message.body.contains($0) }, "what to do if it was not you")
    }

    @Test("the subjects are clear and name the product")
    func subjects() throws {
        let renderer = try Self.renderer()
        func subject(_ request: MailRequest) throws -> String { try renderer.render(request, id: "m1", date: Self.date).message.subject }
        #expect(try subject(Self.request(.confirmSignUp)) == "Your Acme verification code: 123456")
        #expect(try subject(Self.request(.resetPassword)) == "Reset your Acme password")
        #expect(try subject(Self.request(.alreadyRegistered)) == "Someone tried to sign up for Acme with your email")
        #expect(try subject(Self.request(.passwordChanged)) == "Your Acme password was changed")
        #expect(try subject(Self.request(.confirmEmailChange)) == "Confirm your new Acme email address: 123456")
        #expect(try subject(Self.request(.emailChanged)) == "Your Acme email address was changed")
        #expect(try subject(Self.request(.emailInUse)) == "Someone tried to move another Acme account to your email")
        #expect(try subject(Self.request(.test)) == "Test message from Acme")
    }

    @Test("the facts of each message: sign-out on reset, confirmed or pending account, reset or change")
    func facts() throws {
        let renderer = try Self.renderer()
        func body(_ request: MailRequest) throws -> String { try renderer.render(request, id: "m1", date: Self.date).message.body }
        #expect(try body(Self.request(.resetPassword)).contains("Resetting your password signs you out on every device."))
        #expect(try body(Self.request(.alreadyRegistered, confirmed: true)).contains("If it was you, just sign in."))
        #expect(try body(Self.request(.alreadyRegistered, confirmed: false)).contains("still waiting for its confirmation code"))
        #expect(try !body(Self.request(.alreadyRegistered, confirmed: false)).contains("just sign in"))
        #expect(try body(Self.request(.passwordChanged, reset: true)).contains("You were signed out on every device."))
        #expect(try body(Self.request(.passwordChanged, reset: false)).contains("Your other devices were signed out."))
        #expect(try body(Self.request(.confirmEmailChange)).contains("Until it is entered, the account keeps its old address."))
        #expect(try body(Self.request(.emailChanged)).contains("was just changed to b***@e***.com."))
        let changedHTML = try renderer.render(Self.request(.emailChanged), id: "m1", date: Self.date).message.html ?? ""
        #expect(changedHTML.contains("<strong>b***@e***.com</strong>"))
        var unmasked = Self.request(.emailChanged)
        unmasked.address = nil
        #expect(try body(unmasked).contains("was just changed. Messages"), "no address: the sentence still reads")
        #expect(try body(Self.request(.emailInUse)).contains("nothing changed and no code was sent"))
    }

    @Test("no name: a plain greeting; a reply-to address is offered when set")
    func greetingAndReplyTo() throws {
        let plain = try Self.renderer().render(Self.request(.confirmSignUp, name: "  "), id: "m1", date: Self.date).message
        #expect(plain.body.hasPrefix("Hello,\n") && !plain.body.contains("reply"))
        let withReply = try Self.renderer(replyTo: "Support <help@acme.example>").render(Self.request(.resetPassword), id: "m1", date: Self.date)
        #expect(withReply.message.body.contains("write to help@acme.example."))
        #expect(withReply.message.html?.contains("mailto:help@acme.example") == true)
    }

    @Test("HTML escapes values; text and subject do not")
    func escaping() throws {
        let renderer = try MailRenderer(appName: "Tom & Jerry's", from: "no-reply@acme.example")
        let mail = try renderer.render(Self.request(.confirmSignUp, name: "<script>alert(1)</script>"), id: "m1", date: Self.date).message
        let html = try #require(mail.html)
        #expect(html.contains("Hello &lt;script&gt;alert(1)&lt;&#x2F;script&gt;,") || html.contains("Hello &lt;script&gt;alert(1)&lt;/script&gt;,"))
        #expect(!html.contains("<script>"))
        #expect(html.contains("Tom &amp; Jerry"))
        #expect(mail.body.contains("Hello <script>alert(1)</script>,") && mail.body.contains("Tom & Jerry's"))
        #expect(mail.subject == "Your Tom & Jerry's verification code: 123456")
    }

    @Test(
        "code lifetimes in words",
        arguments: [(60, "1 minute"), (900, "15 minutes"), (3600, "1 hour"), (7200, "2 hours"), (86_400, "24 hours"), (259_200, "3 days")]
    )
    func lifetimes(_ seconds: Int, _ words: String) {
        #expect(MailTemplateSet.lifetime(TimeInterval(seconds)) == words)
    }

    @Test("a template directory replaces the files it has; the others stay built in")
    func overrideDirectory() throws {
        let directory = try Self.directory(["confirm_signup.subject.mustache": "{{code}} is your {{app_name}} code\n", "README.txt": "ignored"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let renderer = try Self.renderer(templates: directory)
        let confirm = try renderer.render(Self.request(.confirmSignUp), id: "m1", date: Self.date).message
        #expect(confirm.subject == "123456 is your Acme code")
        #expect(confirm.body.hasPrefix("Hello Alice,") && CapturingMailer.code(in: confirm.body) == "123456")
        let reset = try renderer.render(Self.request(.resetPassword), id: "m1", date: Self.date).message
        #expect(reset.subject == "Reset your Acme password")
    }

    @Test("an unknown template file, one that does not parse, or an unreadable directory stops the start")
    func badDirectories() throws {
        let typo = try Self.directory(["confirm_sigup.subject.mustache": "x"])
        defer { try? FileManager.default.removeItem(atPath: typo) }
        #expect(throws: DeliverySettingsError.self) { try Self.renderer(templates: typo) }
        do {
            _ = try Self.renderer(templates: typo)
        } catch let error as DeliverySettingsError {
            #expect(error.variable == "GATEHOUSE_MAIL_TEMPLATES" && error.message.contains("confirm_sigup.subject.mustache"))
        }
        let broken = try Self.directory(["reset_password.html.mustache": "<p>{{#code}}never closed</p>"])
        defer { try? FileManager.default.removeItem(atPath: broken) }
        do {
            _ = try Self.renderer(templates: broken)
            Issue.record("an unparsable template was accepted")
        } catch let error as DeliverySettingsError {
            #expect(error.variable == "GATEHOUSE_MAIL_TEMPLATES" && error.message.contains("reset_password.html.mustache"))
        }
        do {
            _ = try Self.renderer(templates: "/nonexistent/gatehouse-templates")
            Issue.record("a missing directory was accepted")
        } catch let error as DeliverySettingsError {
            #expect(error.variable == "GATEHOUSE_MAIL_TEMPLATES")
        }
    }

    static func directory(_ files: [String: String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-templates-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: path).appendingPathComponent(name)) }
        return path
    }
}
