import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import Testing

@Suite("Pool: sign-up and confirmation", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SignUpAndConfirmTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    @Test func signUpMailsACodeThatConfirms() async throws {
        try await Self.apps.with { h in
            let result = try await h.passwords.signUp(
                email: "Alice@Example.com",
                password: "correct horse 9",
                fullName: "  Alice  ",
                client: h.client,
                logger: h.logger
            )
            #expect(result.userConfirmed == false && result.codeDelivery == CodeDelivery(destination: "a***@e***.com"))
            let mail = try require(await h.mailer.all.last)
            #expect(mail.kind == "confirm_signup" && mail.to == "Alice@Example.com")
            // The address is not proven yet: the mail greets nobody by the name the requester typed.
            #expect(mail.body.hasPrefix("Hello,\n") && !mail.body.contains("Alice") && mail.body.contains("expires in 24 hours"))
            let code = try require(CapturingMailer.code(in: mail.body))
            // Unconfirmed: the right password gets 403, the wrong one 401.
            await #expect {
                try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .userNotConfirmed
            }
            await #expect {
                try await h.passwords.signIn(email: "alice@example.com", password: "wrong horse 9", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
            try await h.passwords.confirmSignUp(
                email: "ALICE@example.com",
                code: String(code.prefix(3)) + " " + code.dropFirst(3),
                client: h.client,
                logger: h.logger
            )
            let tokens = try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            let user = try await h.store.read { try await $0.user(emailKey: "alice@example.com") }
            #expect(user?.confirmed == true && user?.emailVerified == true && user?.name == "Alice" && user?.id == result.userSub)
            #expect(try await h.me(tokens).sub == result.userSub)
            // The code was used up.
            await #expect {
                try await h.passwords.confirmSignUp(email: "alice@example.com", code: code, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .codeMismatch
            }
        }
    }

    @Test func anExistingAddressGetsTheSameAnswerAndANotice() async throws {
        try await Self.apps.with { h in
            let first = try await h.passwords.signUp(
                email: "alice@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            h.clock.advance(by: 61)
            let second = try await h.passwords.signUp(
                email: "ALICE@example.com",
                password: "another pass 1",
                fullName: "Mallory",
                client: h.client,
                logger: h.logger
            )
            #expect(second.userConfirmed == first.userConfirmed && second.codeDelivery == first.codeDelivery)
            #expect(second.userSub != first.userSub, "the real id is not revealed")
            // Both go out in one delivery pass, concurrently: their order is not the queue's.
            let mails = await h.mailer.all
            #expect(mails.map(\.kind).sorted() == ["already_registered", "confirm_signup"])
            let notice = try #require(mails.first { $0.kind == "already_registered" })
            #expect(CapturingMailer.code(in: notice.body) == nil, "the notice carries no code")
            let user = try await h.store.read { try await $0.user(emailKey: "alice@example.com") }
            #expect(user?.name == nil, "nothing about the account changed")
        }
    }

    @Test(arguments: TestDatabase.available)
    func concurrentSignUpsOfOneAddressMakeOneUser(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let results = try await withThrowingTaskGroup(of: SignUpResult.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        try await h.passwords.signUp(
                            email: "race@example.com",
                            password: "correct horse \(i)",
                            fullName: nil,
                            client: ClientInfo(address: "10.0.0.\(i)"),
                            logger: h.logger
                        )
                    }
                }
                return try await group.reduce(into: [SignUpResult]()) { $0.append($1) }
            }
            #expect(results.count == 8)
            let user = try require(try await h.store.read { try await $0.user(emailKey: "race@example.com") })
            #expect(results.filter { $0.userSub == user.id }.count == 1)
            #expect(await h.mailer.all.filter { $0.kind == "confirm_signup" }.count == 1)
        }
    }

    @Test func wrongCodesSpendTheCode() async throws {
        try await Self.apps.with { h in
            _ = try await h.passwords.signUp(email: "bob@example.com", password: "correct horse 9", fullName: nil, client: h.client, logger: h.logger)
            let code = try require(await h.mailer.latestCode(to: "bob@example.com", kind: "confirm_signup"))
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                await #expect {
                    try await h.passwords.confirmSignUp(email: "bob@example.com", code: wrong, client: h.client, logger: h.logger)
                } throws: {
                    GatehouseError.Code.of($0) == .codeMismatch
                }
            }
            // Spent: the right code now says "expired, ask for a new one"; a wrong one still says mismatch.
            await #expect { try await h.passwords.confirmSignUp(email: "bob@example.com", code: code, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .codeExpired
            }
            h.clock.advance(by: 61)
            _ = try await h.passwords.resendConfirmationCode(email: "bob@example.com", client: h.client, logger: h.logger)
            let fresh = try require(await h.mailer.latestCode(to: "bob@example.com", kind: "confirm_signup"))
            try await h.passwords.confirmSignUp(email: "bob@example.com", code: fresh, client: h.client, logger: h.logger)
        }
    }

    @Test func codesExpire() async throws {
        try await Self.apps.with { h in
            _ = try await h.passwords.signUp(
                email: "carol@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            let code = try require(await h.mailer.latestCode(to: "carol@example.com", kind: "confirm_signup"))
            h.clock.advance(by: 24 * 3600 + 1)
            await #expect {
                try await h.passwords.confirmSignUp(email: "carol@example.com", code: code, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .codeExpired
            }
        }
    }

    @Test func unknownAddressesLookTheSame() async throws {
        try await Self.apps.with { h in
            _ = try await h.passwords.signUp(
                email: "dave@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            h.clock.advance(by: 61)
            let known = try await h.passwords.resendConfirmationCode(email: "dave@example.com", client: h.client, logger: h.logger)
            let unknown = try await h.passwords.resendConfirmationCode(email: "nobody@example.com", client: h.client, logger: h.logger)
            #expect(known.medium == unknown.medium)
            #expect(await h.mailer.messages(to: "nobody@example.com").isEmpty)
            // The cool-down answers 429 for both alike.
            for email in ["dave@example.com", "nobody@example.com"] {
                await #expect { try await h.passwords.resendConfirmationCode(email: email, client: h.client, logger: h.logger) } throws: {
                    ($0 as? GatehouseError)?.code == .tooManyRequests && ($0 as? GatehouseError)?.retryAfter ?? 0 > 0
                }
            }
            await #expect {
                try await h.passwords.confirmSignUp(email: "nobody@example.com", code: "123456", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .codeMismatch
            }
        }
    }

    @Test func aFailingMailerDoesNotChangeTheAnswer() async throws {
        try await Self.apps.with { h in
            h.mailer.setFailing(true)
            let result = try await h.passwords.signUp(
                email: "erin@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            #expect(result.userConfirmed == false)
            #expect(try await h.store.read { try await $0.user(emailKey: "erin@example.com") } != nil)
        }
    }

    @Test func policyAndInputErrorsComeFirst() async throws {
        try await Self.apps.with { h in
            await #expect {
                try await h.passwords.signUp(email: "frank@example.com", password: "short", fullName: nil, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidPassword
            }
            await #expect {
                try await h.passwords.signUp(email: "not-an-email", password: "correct horse 9", fullName: nil, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidRequest
            }
            await #expect {
                try await h.passwords.signUp(
                    email: "frank@example.com",
                    password: "correct horse 9",
                    fullName: "bell\u{07}",
                    client: h.client,
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .invalidRequest
            }
            #expect(await h.mailer.all.isEmpty)
            let leftover = try await h.store.read { try await $0.user(emailKey: "frank@example.com") }
            #expect(leftover == nil, "nothing half-made")
        }
    }
}
