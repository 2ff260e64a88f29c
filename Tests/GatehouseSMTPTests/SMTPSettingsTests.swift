import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP
import NIOCore
import Testing

@Suite("SMTP settings")
struct SMTPSettingsTests {
    @Test func startTLSWithCredentials() throws {
        let settings = try SMTPSettings(url: "smtp://apikey:s3cr%40t%3Apw@smtp.example.com")
        #expect(settings.host == "smtp.example.com" && settings.port == 587 && settings.security == .startTLSIfOffered)
        #expect(settings.username == "apikey" && settings.password == "s3cr@t:pw")
        #expect(settings.redacted == "smtp://apikey:***@smtp.example.com")
        #expect(settings.replyTimeout == .seconds(30) && settings.dataTimeout == .seconds(60) && settings.poolSize == 4)
        #expect(settings.connectTimeout == .seconds(10))
    }

    @Test func implicitTLSAndParameters() throws {
        let settings = try SMTPSettings(url: "smtps://user%40example.com:p%26w@mail.example.com:2465/?timeout=2.5&pool=2")
        #expect(settings.security == .implicitTLS && settings.port == 2465 && settings.username == "user@example.com")
        #expect(settings.password == "p&w" && settings.poolSize == 2)
        #expect(settings.replyTimeout == .milliseconds(2500) && settings.dataTimeout == .seconds(5))
        #expect(settings.redacted == "smtps://user%40example.com:***@mail.example.com:2465?timeout=2.5&pool=2")
        #expect(try SMTPSettings(url: "smtps://relay.example.com").port == 465)
    }

    @Test func catcherAndStartTLSRequired() throws {
        let catcher = try SMTPSettings(url: "smtp://localhost:1025?tls=none")
        #expect(catcher.security == .none && catcher.username == nil && catcher.port == 1025)
        #expect(catcher.redacted == "smtp://localhost:1025?tls=none")
        #expect(try SMTPSettings(url: "SMTP://[::1]:25?tls=starttls").security == .startTLSRequired)
        #expect(try SMTPSettings(url: "smtp://[::1]:25").host == "::1")
    }

    @Test(arguments: [
        "http://user:hunter2pw@host", "smtp://user:hunter2pw@", "smtp://user:hunter2pw@host:0", "smtp://user:hunter2pw@host:99999",
        "smtp://user:hunter2pw@host:25x", "smtp://:hunter2pw@host", "smtp://user:hunter2pw@host?tlz=none",
        "smtp://user:hunter2pw@host?tls=yes", "smtps://user:hunter2pw@host?tls=none", "smtp://user:hunter2pw@host?timeout=0",
        "smtp://user:hunter2pw@host?pool=100", "smtp://user:hunter2pw@host/path", "smtp://user:hunter2pw%zz@host",
        "smtp://user@host", "smtp://user:hunter2pw@ho st", "smtp://user:hunter2pw@[::1",
    ])
    func badURLsNameTheVariableWithoutThePassword(_ url: String) {
        let error = #expect(throws: DeliverySettingsError.self) { try SMTPSettings(url: url) }
        #expect(error?.variable == "GATEHOUSE_MAIL")
        #expect(error.map { !"\($0)".contains("hunter2pw") } == true, "\(String(describing: error))")
    }

    @Test func caFileErrorsNameTheirVariable() throws {
        let missing = #expect(throws: DeliverySettingsError.self) { try SMTPSettings(url: "smtp://host", caFile: "/nonexistent/ca.pem") }
        #expect(missing?.variable == "GATEHOUSE_SMTP_CA_FILE")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-not-a-cert-\(UUID().uuidString).pem")
        try Data("not a certificate\n".utf8).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let invalid = #expect(throws: DeliverySettingsError.self) { try SMTPSettings(url: "smtp://u:hunter2pw@host", caFile: path.path) }
        #expect(invalid?.variable == "GATEHOUSE_SMTP_CA_FILE")
        #expect(invalid.map { !"\($0)".contains("hunter2pw") } == true)
    }
}
