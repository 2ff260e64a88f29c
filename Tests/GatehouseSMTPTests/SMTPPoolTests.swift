import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP
import GatehouseTesting
import Logging
import Testing

@Suite("SMTP pool (aiosmtpd)", .serialized, .enabled(if: SMTPTestServer.isAvailable), .tags(.emulator), .enabled(if: TestKind.runs("emulator")))
struct SMTPPoolTests {
    @Test func twoMessagesShareOneConnection() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret")
        let transport = try server.transport(credentials: "mailer:secret@", query: "?timeout=10")
        try await transport.send(testMail(to: "ann@example.com", id: "m1"))
        try await transport.send(testMail(to: "bob@example.com", id: "m2"))
        await transport.shutdown()
        #expect(try server.deliveries().map(\.envelope.rcpt_tos) == [["ann@example.com"], ["bob@example.com"]])
        #expect(server.connections == 1)
        #expect(server.events().filter { $0.hasPrefix("auth") }.count == 1)
    }

    @Test func aConnectionTheServerClosedIsReplacedAndTheMessageSent() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls")
        let transport = try server.transport(query: "?timeout=10")
        try await transport.send(testMail(to: "ann@example.com"))
        #expect(try await server.closeConnections() == 1)
        try await transport.send(testMail(to: "bob@example.com"))
        await transport.shutdown()
        #expect(try server.deliveries().count == 2)
        #expect(server.connections == 2)
    }

    @Test func aReusedConnectionFailingBeforeMailFromIsReplacedOnce() async throws {
        let server = try await SMTPTestServer.start("--tls", "none", "--rset421")
        let capture = LogCapture()
        let transport = try server.transport(query: "?tls=none&timeout=10", logger: capture.logger)
        try await transport.send(testMail(to: "ann@example.com"))
        try await transport.send(testMail(to: "bob@example.com"))  // RSET → 421: retried on a new connection
        await transport.shutdown()
        #expect(try server.deliveries().count == 2)
        #expect(server.connections == 2)
        #expect(capture.text.contains("retrying once on a new connection"))
    }

    @Test func idleConnectionsOlderThanTheirLifetimeAreNotReused() async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        var settings = try SMTPSettings(url: "smtp://localhost:\(server.port)?tls=none&timeout=10")
        settings.idleLifetime = .zero
        let transport = SMTPTransport(settings: settings, logger: Logger(label: "smtp-test"))
        try await transport.send(testMail(to: "ann@example.com"))
        try await transport.send(testMail(to: "bob@example.com"))
        await transport.shutdown()
        #expect(try server.deliveries().count == 2)
        #expect(server.connections == 2)
    }

    @Test func concurrentSendsUseAtMostPoolSizeConnections() async throws {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret")
        let transport = try server.transport(credentials: "mailer:secret@", query: "?timeout=10&pool=3")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    try await transport.send(testMail(to: "user\(index)@example.com", data: "Subject: \(index)\r\n\r\nmessage \(index)\r\n"))
                }
            }
            try await group.waitForAll()
        }
        await transport.shutdown()
        let deliveries = try server.deliveries()
        #expect(deliveries.count == 12)
        for delivery in deliveries {
            let index = try #require(delivery.envelope.rcpt_tos.first?.dropFirst(4).split(separator: "@").first)
            #expect(delivery.data == Array("Subject: \(index)\r\n\r\nmessage \(index)\r\n".utf8), "no interleaving")
        }
        #expect(server.connections <= 3)
    }

    @Test func sendAfterShutdownFailsTransiently() async throws {
        let server = try await SMTPTestServer.start("--tls", "none")
        let transport = try server.transport(query: "?tls=none&timeout=10")
        try await transport.send(testMail(to: "ann@example.com"))
        await transport.shutdown()
        let error = await #expect(throws: DeliveryError.self) { try await transport.send(testMail(to: "bob@example.com")) }
        #expect(error?.kind == .transient)
    }
}
