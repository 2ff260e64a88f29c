import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Every mail flow of CONTRACT.md through the real app and a real SMTP server (issue 13, "done means"):
/// `GATEHOUSE_MAIL=smtp://mailer:secret@127.0.0.1:<port>` with STARTTLS on the test CA
/// (`GATEHOUSE_SMTP_CA_FILE`) and AUTH, the delivery service running in the background, and the codes read
/// from the messages aiosmtpd received, the way a user reads them.
@Suite(
    "Mail flows over SMTP (aiosmtpd)",
    .serialized,
    .enabled(if: SMTPTestServer.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct SMTPMailFlowTests {
    static let from = "Acme Accounts <accounts@acme.test>"
    static let password = "correct horse 9"

    /// A running SMTP server (STARTTLS, AUTH mailer:secret) and the app configured for it from the environment.
    static func start(query: String = "") async throws -> (SMTPTestServer, TestApp) {
        let server = try await SMTPTestServer.start("--tls", "starttls", "--auth", "mailer:secret")
        let read = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_MAIL": "smtp://mailer:secret@127.0.0.1:\(server.port)\(query)",
            "GATEHOUSE_SMTP_CA_FILE": server.caFile,
            "GATEHOUSE_MAIL_FROM": from,
        ])
        guard case .smtp = read.mail else { throw SMTPTestServerError(message: "GATEHOUSE_MAIL did not select SMTP") }
        let app = try await TestApp.make(mail: .configured) { configuration in
            configuration.mail = read.mail
            configuration.mailFrom = read.mailFrom
        }
        return (server, app)
    }

    /// Waits for the delivery service, then returns what the server received since `skipping` messages,
    /// after checking each one's envelope and shape: one recipient (the user), the configured sender,
    /// authenticated over TLS, multipart with a text and an HTML part, From and To right.
    static func delivered(_ app: TestApp, _ server: SMTPTestServer, skipping: Int) async throws -> [DeliveredMessage] {
        await app.built.messageDelivery.waitUntilIdle()
        let deliveries = try server.deliveries().dropFirst(skipping)
        return deliveries.map { delivery in
            let message = DeliveredMessage(String(decoding: delivery.data, as: UTF8.self))
            let recipient = delivery.envelope.rcpt_tos.first ?? ""
            #expect(delivery.envelope.rcpt_tos.count == 1)
            #expect(delivery.envelope.mail_from == "accounts@acme.test")
            #expect(delivery.envelope.auth == "mailer" && delivery.envelope.tls, "AUTH over STARTTLS")
            #expect(message.contentType.hasPrefix("multipart/alternative"), "\(message.contentType)")
            #expect(message.text?.isEmpty == false && message.html?.contains("<html") == true, "both parts")
            #expect(message.header("From") == from)
            #expect(message.header("To") == recipient)
            return message
        }
    }

    /// The only message delivered since `skipping`, after checking its kind and its envelope recipient.
    static func single(
        _ kind: String,
        to address: String,
        _ app: TestApp,
        _ server: SMTPTestServer,
        skipping: Int
    ) async throws -> DeliveredMessage {
        let messages = try await delivered(app, server, skipping: skipping)
        try #require(messages.count == 1, "expected one \(kind) message, got \(messages.map { $0.header("X-Gatehouse-Kind") ?? "?" })")
        #expect(messages[0].header("X-Gatehouse-Kind") == kind)
        #expect(messages[0].header("To") == address)
        #expect(try server.deliveries().last?.envelope.rcpt_tos == [address], "the envelope recipient is the user")
        return messages[0]
    }

    /// Signs `email` up and confirms it with the code from the delivered message.
    static func confirmedUser(_ email: String, _ client: any TestClientProtocol, _ app: TestApp, _ server: SMTPTestServer) async throws {
        let before = try server.deliveries().count
        let signUp = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": .string(password)])
        #expect(signUp.status == .created)
        let code = try #require(try await single("confirm_signup", to: email, app, server, skipping: before).code)
        let confirm = try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)])
        #expect(confirm.status == .ok && confirm["confirmed"] == .bool(true))
    }

    @Test("sign-up: the mailed code confirms; resend-code mails a new code that confirms")
    func signUpAndResend() async throws {
        let (server, app) = try await Self.start()
        try await app.live { client in
            try await Self.confirmedUser("alice@example.com", client, app, server)
            let signIn = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": .string(Self.password)])
            #expect(signIn.status == .ok)

            let signUp = try await client.send(.post, "/auth/signup", json: ["email": "bob@example.com", "password": .string(Self.password)])
            #expect(signUp.status == .created)
            let first = try #require(try await Self.single("confirm_signup", to: "bob@example.com", app, server, skipping: 1).code)
            app.clock.advance(by: 61)
            let resend = try await client.send(.post, "/auth/resend-code", json: ["email": "bob@example.com"])
            #expect(resend.status == .ok)
            let second = try #require(try await Self.single("confirm_signup", to: "bob@example.com", app, server, skipping: 2).code)
            #expect(second != first, "a new code")
            let confirm = try await client.send(.post, "/auth/confirm", json: ["email": "bob@example.com", "code": .string(second)])
            #expect(confirm.status == .ok && confirm["confirmed"] == .bool(true))
        }
    }

    @Test("forgot: the mailed code resets the password and the password_changed notice arrives")
    func forgotAndReset() async throws {
        let (server, app) = try await Self.start()
        try await app.live { client in
            try await Self.confirmedUser("carol@example.com", client, app, server)
            app.clock.advance(by: 61)
            let forgot = try await client.send(.post, "/auth/password/forgot", json: ["email": "carol@example.com"])
            #expect(forgot.status == .ok)
            let code = try #require(try await Self.single("reset_password", to: "carol@example.com", app, server, skipping: 1).code)
            let reset = try await client.send(
                .post,
                "/auth/password/reset",
                json: ["email": "carol@example.com", "code": .string(code), "new_password": "reset horse 13"]
            )
            #expect(reset.status == .ok && reset["reset"] == .bool(true))
            let notice = try await Self.single("password_changed", to: "carol@example.com", app, server, skipping: 2)
            #expect(notice.code == nil, "a notice carries no code")
            let signIn = try await client.send(.post, "/auth/signin", json: ["email": "carol@example.com", "password": "reset horse 13"])
            #expect(signIn.status == .ok)
        }
    }

    @Test("sign-up of a registered address mails the owner the already_registered notice; a password change mails a notice")
    func noticesForTheOwner() async throws {
        let (server, app) = try await Self.start()
        try await app.live { client in
            try await Self.confirmedUser("dave@example.com", client, app, server)
            app.clock.advance(by: 61)
            let again = try await client.send(.post, "/auth/signup", json: ["email": "dave@example.com", "password": "other horse 10"])
            #expect(again.status == .created)
            let registered = try await Self.single("already_registered", to: "dave@example.com", app, server, skipping: 1)
            #expect(registered.code == nil)

            let signIn = try await client.send(.post, "/auth/signin", json: ["email": "dave@example.com", "password": .string(Self.password)])
            let change = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": .string(Self.password), "new_password": "changed horse 11"],
                bearer: signIn.string("access_token")
            )
            #expect(change.status == .ok && change["changed"] == .bool(true))
            _ = try await Self.single("password_changed", to: "dave@example.com", app, server, skipping: 2)
        }
    }

    @Test("a hung SMTP server: sign-up and forgot still answer while the message stays undelivered")
    func hungServerDoesNotHoldTheAnswer() async throws {
        let (server, app) = try await Self.start()
        try await app.live { client in
            // aiosmtpd never answers RCPT TO for the local part "hang".
            let signUp = try await client.send(.post, "/auth/signup", json: ["email": "hang@example.com", "password": .string(Self.password)])
            #expect(signUp.status == .created)
            try await server.waitForEvent("hang rcpt")  // the delivery service is now stuck on that message
            app.clock.advance(by: 61)
            let forgot = try await client.send(.post, "/auth/password/forgot", json: ["email": "hang@example.com"])
            #expect(forgot.status == .ok)
            let another = try await client.send(.post, "/auth/signup", json: ["email": "hang@example.net", "password": .string(Self.password)])
            #expect(another.status == .created, "answered while the SMTP server is hung")
            #expect(try server.deliveries().isEmpty, "nothing was delivered")
            let counts = try await app.built.store.read { try await $0.messageQueueCounts() }
            #expect(counts.queued == 3 && counts.dead == 0, "every message is still queued: \(counts)")
            server.stop()  // the hung connection closes, so the delivery in flight ends before shutdown
        }
    }

    @Test("a 550 recipient: the request answers normally and the message ends dead-lettered")
    func rejectedRecipientIsDeadLettered() async throws {
        let (server, app) = try await Self.start()
        try await app.live { client in
            let signUp = try await client.send(.post, "/auth/signup", json: ["email": "fail550@example.com", "password": .string(Self.password)])
            #expect(signUp.status == .created && signUp["code_delivery"]?.objectValue?["medium"] == "EMAIL")
            await app.built.messageDelivery.waitUntilIdle()
            let counts = try await app.built.store.read { try await $0.messageQueueCounts() }
            #expect(counts.dead == 1 && counts.queued == 0, "\(counts)")
            #expect(try server.deliveries().isEmpty)
        }
    }
}
