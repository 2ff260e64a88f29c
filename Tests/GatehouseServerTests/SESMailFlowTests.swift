import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// The main mail flows through the real app and moto's SES (issue 13, "done means"): `GATEHOUSE_MAIL=ses`
/// with `GATEHOUSE_SES_ENDPOINT` at the emulator, a verified sender, the delivery service running in the
/// background, and the codes read from the raw messages moto kept.
@Suite(
    "Mail flows over SES (moto)",
    .serialized,
    .enabled(if: MotoSES.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct SESMailFlowTests {
    static let password = "correct horse 9"

    /// The app configured for moto's SES from the environment, sending as a freshly verified `sender`.
    static func start(_ moto: MotoSES, sender: String) async throws -> TestApp {
        try await moto.verifyIdentity(sender)
        var environment = moto.environment
        environment["GATEHOUSE_MAIL_FROM"] = "Acme Accounts <\(sender)>"
        let read = try GatehouseConfiguration.fromEnvironment(environment)
        guard case .ses = read.mail else { throw GatehouseError.internalError(cause: "GATEHOUSE_MAIL did not select SES") }
        return try await TestApp.make(mail: .configured) { configuration in
            configuration.mail = read.mail
            configuration.mailFrom = read.mailFrom
        }
    }

    /// Waits for the delivery service, then returns the messages moto holds from `sender` to `recipient` only
    /// (moto may list it more than once), oldest first, after checking each is multipart with both parts and addressed right.
    static func delivered(_ app: TestApp, _ moto: MotoSES, from sender: String, to recipient: String) async throws -> [DeliveredMessage] {
        await app.built.messageDelivery.waitUntilIdle()
        let sent = try await moto.sent().filter { $0.source == sender && Set($0.destinations) == [recipient] }
        return sent.map { entry in
            let message = DeliveredMessage(entry.raw)
            #expect(message.contentType.hasPrefix("multipart/alternative"), "\(message.contentType)")
            #expect(message.text?.isEmpty == false && message.html?.contains("<html") == true, "both parts")
            #expect(message.header("From") == "Acme Accounts <\(sender)>")
            #expect(message.header("To") == recipient)
            return message
        }
    }

    @Test("sign-up: the code in the message moto kept confirms; forgot: the mailed code resets the password")
    func signUpConfirmForgotReset() async throws {
        let moto = try #require(MotoSES.shared)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let sender = "accounts-\(tag)@acme.example"
        let email = "erin-\(tag)@example.com"
        let app = try await Self.start(moto, sender: sender)
        try await app.live { client in
            let signUp = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": .string(Self.password)])
            #expect(signUp.status == .created)
            var messages = try await Self.delivered(app, moto, from: sender, to: email)
            try #require(messages.count == 1, "moto holds \(messages.count) messages for the user")
            #expect(messages[0].header("X-Gatehouse-Kind") == "confirm_signup")
            let code = try #require(messages[0].code)
            let confirm = try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)])
            #expect(confirm.status == .ok && confirm["confirmed"] == .bool(true))

            app.clock.advance(by: 61)
            let forgot = try await client.send(.post, "/auth/password/forgot", json: ["email": .string(email)])
            #expect(forgot.status == .ok)
            messages = try await Self.delivered(app, moto, from: sender, to: email)
            try #require(messages.count == 2, "moto holds \(messages.count) messages for the user")
            #expect(messages[1].header("X-Gatehouse-Kind") == "reset_password")
            let resetCode = try #require(messages[1].code)
            let reset = try await client.send(
                .post,
                "/auth/password/reset",
                json: ["email": .string(email), "code": .string(resetCode), "new_password": "reset horse 13"]
            )
            #expect(reset.status == .ok && reset["reset"] == .bool(true))
            let signIn = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "reset horse 13"])
            #expect(signIn.status == .ok)
            messages = try await Self.delivered(app, moto, from: sender, to: email)
            #expect(messages.last?.header("X-Gatehouse-Kind") == "password_changed", "the notice went out through SES too")
        }
    }

    @Test("resend-code mails a new code that confirms; a registered address's sign-up and a password change mail their notices")
    func resendNoticesAndChange() async throws {
        let moto = try #require(MotoSES.shared)
        let tag = UUID().uuidString.prefix(8).lowercased()
        let sender = "accounts-\(tag)@acme.example"
        let email = "fred-\(tag)@example.com"
        let app = try await Self.start(moto, sender: sender)
        try await app.live { client in
            #expect(
                try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": .string(Self.password)]).status == .created
            )
            // The sign-up mail goes out first: a batch is sent concurrently, so two queued together
            // could reach moto in either order.
            await app.built.messageDelivery.waitUntilIdle()
            app.clock.advance(by: 61)
            #expect(try await client.send(.post, "/auth/resend-code", json: ["email": .string(email)]).status == .ok)
            var messages = try await Self.delivered(app, moto, from: sender, to: email)
            try #require(messages.count == 2, "moto holds \(messages.count) messages for the user")
            let first = try #require(messages[0].code)
            let second = try #require(messages[1].code)
            #expect(messages.map { $0.header("X-Gatehouse-Kind") } == ["confirm_signup", "confirm_signup"] && first != second)
            let confirm = try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(second)])
            #expect(confirm.status == .ok)

            app.clock.advance(by: 61)
            let again = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "another horse 12"])
            #expect(again.status == .created, "the same answer as for a new address")
            messages = try await Self.delivered(app, moto, from: sender, to: email)
            #expect(messages.last?.header("X-Gatehouse-Kind") == "already_registered")
            #expect(messages.last?.code == nil, "a notice carries no code")

            let signIn = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": .string(Self.password)])
            let change = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": .string(Self.password), "new_password": "changed horse 11"],
                bearer: signIn.string("access_token")
            )
            #expect(change.status == .ok)
            messages = try await Self.delivered(app, moto, from: sender, to: email)
            #expect(messages.last?.header("X-Gatehouse-Kind") == "password_changed")
        }
    }
}
