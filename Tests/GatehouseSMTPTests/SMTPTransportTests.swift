import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP
import GatehouseTesting
import Logging
import Testing

@Suite("SMTP transport (aiosmtpd)", .serialized, .enabled(if: SMTPTestServer.isAvailable), .tags(.emulator), .enabled(if: TestKind.runs("emulator")))
struct SMTPTransportTests {
    @Test func startTLSWithAuthPlainDelivers() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:pa ss@word")
        let transport = try server.transport(credentials: "mailer:pa%20ss%40word@", query: "?timeout=10")
        #expect(
            try await transport.check() == [
                "connected to localhost:\(server.port)", "STARTTLS negotiated (TLSv1.3)", "authenticated as mailer (PLAIN)",
            ]
        )
        try await transport.send(testMail(to: "ann@example.com"))
        await transport.shutdown()
        let deliveries = try server.deliveries()
        try #require(deliveries.count == 1)
        #expect(deliveries[0].envelope == .init(mail_from: "noreply@gatehouse.test", rcpt_tos: ["ann@example.com"], auth: "mailer", tls: true))
        #expect(deliveries[0].data == Array("Subject: hello\r\n\r\nHello.\r\n".utf8))
        #expect(server.events().filter { $0.hasPrefix("auth") } == ["auth PLAIN mailer ok", "auth PLAIN mailer ok"])
    }

    @Test func authLoginWhenPlainIsNotOffered() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret", "--mechanisms", "LOGIN")
        let transport = try server.transport(credentials: "mailer:secret@", query: "?timeout=10")
        #expect(try await transport.check().last == "authenticated as mailer (LOGIN)")
        try await transport.send(testMail(to: "ann@example.com"))
        await transport.shutdown()
        #expect(try server.deliveries().map(\.envelope.auth) == ["mailer"])
        #expect(server.events().contains("auth LOGIN mailer ok"))
    }

    @Test func implicitTLSDeliversAndChecksTheIPAddress() async throws {
        let server = try await SMTPTestServer.start("--tls", "implicit", "--auth", "mailer:secret")
        let transport = try server.transport("smtps", credentials: "mailer:secret@", host: "127.0.0.1", query: "?timeout=10")
        #expect(
            try await transport.check() == ["connected to 127.0.0.1:\(server.port)", "TLS negotiated (TLSv1.3)", "authenticated as mailer (PLAIN)"]
        )
        try await transport.send(testMail(to: "ann@example.com"))
        await transport.shutdown()
        #expect(try server.deliveries().map(\.envelope.tls) == [true])
    }

    @Test func receivedBytesEqualTheMessageAfterDotStuffing() async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        let transport = try server.transport(query: "?tls=none&timeout=10")
        let body = "Subject: dots\r\n\r\n.starts with a dot\r\n..two dots\r\n.\r\nbare LF next\nlast line\r\n"
        try await transport.send(testMail(to: "ann@example.com", data: body))
        await transport.shutdown()
        let expected = body.replacingOccurrences(of: "next\nlast", with: "next\r\nlast")
        #expect(try server.deliveries().map { String(decoding: $0.data, as: UTF8.self) } == [expected])
    }

    @Test func credentialsAreNeverSentInClearWithoutTLSNone() async throws {
        let server = try await SMTPTestServer.start("--tls", "none", "--auth", "mailer:secret")
        let refusing = try server.transport(credentials: "mailer:secret@", query: "?timeout=10")
        let error = await #expect(throws: DeliveryError.self) { try await refusing.send(testMail(to: "ann@example.com")) }
        #expect(error?.kind == .permanent)
        #expect(error?.detail.contains("does not offer STARTTLS") == true)
        await #expect(throws: DeliveryError.self) { try await refusing.check() }
        #expect(!server.events().contains { $0.hasPrefix("auth") }, "no AUTH was attempted")
        #expect(try server.deliveries().isEmpty)

        let allowed = try server.transport(credentials: "mailer:secret@", query: "?tls=none&timeout=10")
        #expect(try await allowed.check().contains("no TLS (tls=none)"))
        try await allowed.send(testMail(to: "ann@example.com"))
        await allowed.shutdown()
        #expect(try server.deliveries().map(\.envelope.auth) == ["mailer"])
    }

    @Test(arguments: [("smtp", "starttls", "STARTTLS handshake"), ("smtps", "implicit", "TLS handshake")])
    func anUntrustedCertificateIsAPermanentFailure(_ scheme: String, _ tls: String, _ step: String) async throws {
        let server = try await SMTPTestServer.start("--tls", tls, "--auth", "mailer:secret")
        let transport = try server.transport(scheme, credentials: "mailer:secret@", query: "?timeout=10", trusted: false)
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "ann@example.com")) }
        #expect(error?.kind == .permanent)
        #expect(error?.detail.contains("certificate could not be verified") == true, "\(String(describing: error))")
        let checked = await #expect(throws: DeliveryError.self) { try await transport.check() }
        #expect(checked?.detail.hasPrefix(step) == true, "\(String(describing: checked))")
        #expect(!server.events().contains { $0.hasPrefix("auth") })
        #expect(try server.deliveries().isEmpty)
    }

    @Test func wrongPasswordIsPermanent() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret")
        let transport = try server.transport(credentials: "mailer:wrong-password@", query: "?timeout=10")
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "ann@example.com")) }
        #expect(error?.kind == .permanent && error?.code == 535)
        #expect(error.map { !"\($0)".contains("wrong-password") } == true)
    }

    @Test func checkNamesTheStepThatFailed() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret")
        let transport = try server.transport(credentials: "mailer:bad-password@", query: "?timeout=10")
        let error = await #expect(throws: DeliveryError.self) { try await transport.check() }
        #expect(error?.detail.hasPrefix("AUTH PLAIN: the server replied 535") == true, "\(String(describing: error))")
        let port = server.port
        server.stop()
        let refused = try SMTPTransport(settings: SMTPSettings(url: "smtp://127.0.0.1:\(port)?timeout=10"), logger: Logger(label: "smtp-test"))
        let down = await #expect(throws: DeliveryError.self) { try await refused.send(testMail(to: "ann@example.com")) }
        #expect(down?.kind == .transient)
        #expect(down?.detail.hasPrefix("connect to 127.0.0.1:\(port):") == true, "\(String(describing: down))")
    }

    @Test(arguments: [
        ("fail421", DeliveryError.Kind.transient, 421), ("fail451", .transient, 451), ("fail550", .permanent, 550),
        ("fail421-data", .transient, 421), ("fail451-data", .transient, 451), ("fail550-data", .permanent, 550),
    ])
    func replyClasses(_ recipient: String, _ kind: DeliveryError.Kind, _ code: Int) async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls")
        let transport = try server.transport(query: "?timeout=10")
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "\(recipient)@example.com")) }
        #expect(error?.kind == kind && error?.code == code, "\(String(describing: error))")
        #expect(error?.detail.contains("example.com") == false, "the recipient is not in the detail")
        try await transport.send(testMail(to: "ann@example.com"))  // the connection was replaced or reset
        await transport.shutdown()
        #expect(try server.deliveries().count == 1)
        #expect(server.connections == (code == 421 ? 2 : 1))
    }

    @Test func aServerThatHangsTimesOutTransiently() async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        let transport = try server.transport(query: "?tls=none&timeout=1")
        let start = ContinuousClock.now
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "hang@example.com")) }
        let elapsed = start.duration(to: .now)
        #expect(error?.kind == .transient)
        #expect(error?.detail.hasPrefix("RCPT TO: no reply within 1.0 s") == true, "\(String(describing: error))")
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(4), "\(elapsed)")
    }

    @Test func aDroppedConnectionIsTransient() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls")
        let transport = try server.transport(query: "?timeout=10")
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "drop@example.com")) }
        #expect(error?.kind == .transient)
        #expect(error?.detail == "message data: the server closed the connection")
    }

    @Test func theReplyAfterTheDataMayTakeLongerThanOtherReplies() async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        let transport = try server.transport(query: "?tls=none&timeout=1.8")  // the server answers the data after 2 s
        try await transport.send(testMail(to: "slow@example.com"))
        await transport.shutdown()
        #expect(try server.deliveries().count == 1)
    }

    @Test(arguments: ["ann@example.com>\r\nRSET", "ann@example.com\nDATA", "ann @example.com", "<ann@example.com", ""])
    func injectionThroughTheEnvelopeIsRefused(_ recipient: String) async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        let transport = try server.transport(query: "?tls=none")
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: recipient)) }
        #expect(error?.kind == .permanent)
        var mail = testMail(to: "ann@example.com")
        mail.sender = "noreply@gatehouse.test>\r\nRCPT TO:<victim@example.com"
        await #expect(throws: DeliveryError.self) { try await transport.send(mail) }
        #expect(server.connections == 0)
    }

    @Test func logsCarryNeitherThePasswordNorTheRecipientNorTheBody() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:topsecretpw")
        let capture = LogCapture()
        let transport = try server.transport(credentials: "mailer:topsecretpw@", query: "?timeout=10", logger: capture.logger)
        try await transport.send(testMail(to: "ann@example.com", data: "Subject: s\r\n\r\ncode 123456\r\n"))
        _ = try? await transport.send(testMail(to: "fail550@example.com"))
        await transport.shutdown()
        let logs = capture.text
        #expect(!logs.isEmpty)
        for secret in ["topsecretpw", "ann@", "fail550@", "123456"] { #expect(!logs.contains(secret), "\(secret) in \(logs)") }
    }
}
