import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

/// Sensitive actions need a sign-in at least as strong as the strongest way into the account, or its
/// current password. The review's reproduction: a number linked to a password account signed into it
/// by SMS alone, and that session could replace the number or delete the account.
@Suite("Pool: step-up for sensitive actions", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct StepUpTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let number = PhoneLinkingTests.number

    /// A password account with a linked number, and a session made by SMS alone.
    static func linkedAccount(_ h: PoolHarness) async throws -> (byPassword: Principal, bySMS: Principal) {
        let byPassword = try await h.me(try await h.confirmedUser("linked@example.com"))
        _ = try await h.phone.addNumber(principal: byPassword, phone: Self.number, client: h.client, logger: h.logger)
        let code = try require(await h.texts.latestCode(to: Self.number))
        try await h.phone.verifyNumber(principal: byPassword, phone: Self.number, code: code, client: h.client, logger: h.logger)
        h.clock.advance(by: 61)
        _ = try await PhoneSignInTests.send(h, Self.number)
        let bySMS = try await h.me(try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number)))
        #expect(bySMS.sub == byPassword.sub)
        h.clock.advance(by: 61)
        return (byPassword, bySMS)
    }

    @Test(arguments: TestDatabase.available)
    func anSMSSessionCannotTakeOverAnAccountThatHasAPassword(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let (_, bySMS) = try await Self.linkedAccount(h)
            let refused = await #expect(throws: GatehouseError.self) {
                _ = try await h.phone.addNumber(principal: bySMS, phone: "+447700900124", client: h.client, logger: h.logger)
            }
            #expect(
                refused?.code == .reauthenticationRequired && refused?.message.contains("your password") == true,
                "\(String(describing: refused))"
            )
            #expect(await h.texts.texts(to: "+447700900124").isEmpty, "nothing texted")
            await #expect { try await h.accounts.delete(for: bySMS, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .reauthenticationRequired
            }
            #expect(try await h.store.read { try await $0.user(id: bySMS.sub) } != nil, "the account is still there")
            // A wrong current password is a failed sign-in; the right one stands in for a new sign-in.
            await #expect {
                try await h.accounts.delete(for: bySMS, currentPassword: "wrong horse 9", client: h.client, logger: h.logger)
            } throws: { GatehouseError.Code.of($0) == .invalidCredentials }
            _ = try await h.phone.addNumber(
                principal: bySMS,
                phone: "+447700900124",
                currentPassword: "correct horse 9",
                client: h.client,
                logger: h.logger
            )
            try await h.accounts.delete(for: bySMS, currentPassword: "correct horse 9", client: h.client, logger: h.logger)
            #expect(try await h.store.read { try await $0.user(id: bySMS.sub) } == nil)
        }
    }

    @Test func aPasswordSessionNeedsNothingMore() async throws {
        try await Self.apps.with { h in
            let (byPassword, _) = try await Self.linkedAccount(h)
            _ = try await h.phone.addNumber(principal: byPassword, phone: "+447700900124", client: h.client, logger: h.logger)
            try await h.accounts.delete(for: byPassword, client: h.client, logger: h.logger)
        }
    }

    @Test func aPhoneOnlyAccountIsManagedByItsOwnSMSSession() async throws {
        try await Self.apps.with { h in
            _ = try await PhoneSignInTests.send(h)
            let principal = try await h.me(try await PhoneSignInTests.verify(h, code: try await PhoneSignInTests.code(h)))
            _ = try await h.phone.addNumber(principal: principal, phone: "+14155550987", client: h.client, logger: h.logger)
            // No password to stand in: sending one is a clear error, not a sign-in failure.
            await #expect {
                try await h.accounts.delete(for: principal, currentPassword: "anything", client: h.client, logger: h.logger)
            } throws: { GatehouseError.Code.of($0) == .invalidRequest }
            try await h.accounts.delete(for: principal, client: h.client, logger: h.logger)
        }
    }

    @Test func aProviderAccountAsksForTheProviderAgain() async throws {
        try await Self.apps.with { h in
            let google = VerifiedIdentity(
                provider: .google,
                subject: "g-step",
                email: "step@gmail.com",
                emailVerified: true,
                emailAuthoritative: true,
                isPrivateEmail: false,
                name: nil,
                audience: "client-1"
            )
            let request = ProviderSignIn(identity: google, nonce: nil, fullNameHint: nil)
            let byGoogle = try await h.me(try await h.pool.signInWithProvider(request, client: h.client, logger: h.logger).tokens)
            _ = try await h.phone.addNumber(principal: byGoogle, phone: Self.number, client: h.client, logger: h.logger)
            let code = try require(await h.texts.latestCode(to: Self.number))
            try await h.phone.verifyNumber(principal: byGoogle, phone: Self.number, code: code, client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            _ = try await PhoneSignInTests.send(h, Self.number)
            let bySMS = try await h.me(try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number)))
            let refused = await #expect(throws: GatehouseError.self) { try await h.accounts.delete(for: bySMS, client: h.client, logger: h.logger) }
            #expect(refused?.code == .reauthenticationRequired && refused?.message.contains("Google or Apple") == true)
            #expect(refused?.message.contains("current_password") == false, "no password to offer")
        }
    }

    @Test func aMaximumAgeAsksEvenAStrongSessionToSignInAgain() async throws {
        try await PoolHarness.run(stepUpMaxAge: 600) { h in
            let principal = try await h.me(try await h.confirmedUser())
            h.clock.advance(by: 601)
            let refused = await #expect(throws: GatehouseError.self) {
                try await h.accounts.delete(for: principal, client: h.client, logger: h.logger)
            }
            #expect(refused?.code == .reauthenticationRequired && refused?.message.contains("recent") == true)
            let fresh = try await h.me(
                try await h.passwords.signIn(email: "alice@example.com", password: "correct horse 9", client: h.client, logger: h.logger)
            )
            try await h.accounts.delete(for: fresh, client: h.client, logger: h.logger)
        }
    }
}
