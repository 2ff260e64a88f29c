import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import Testing

/// A throttle on guesses is not a lock on the owner: wrong codes from a stranger count against the
/// code they target (its five tries) and against the stranger's own address, never against the
/// account or the number, so the owner's freshly sent code still works. The review's reproduction kept
/// an owner out of phone sign-in with 24 wrong guesses over 150 s; the same held for confirm, reset and
/// adding a number.
@Suite("Pool: wrong codes never lock the owner out", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CodeLockOutTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let stranger = ClientInfo(address: "203.0.113.66")
    static let wrong = "000000"

    @Test(arguments: TestDatabase.available)
    func strangersGuessesDoNotKeepTheOwnerOutOfPhoneSignIn(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let number = PhoneSignInTests.number
            // 24 wrong guesses over 150 s from one address, as in the review.
            for _ in 0..<24 {
                await #expect(throws: GatehouseError.self) {
                    try await h.phone.verifyCode(phone: number, code: Self.wrong, client: Self.stranger, logger: h.logger)
                }
                h.clock.advance(by: 6.25)
            }
            // The owner's fresh code still signs in, again and again, with the stranger still guessing.
            for round in 0..<3 {
                _ = try await PhoneSignInTests.send(h, number)
                await #expect(throws: GatehouseError.self) {
                    try await h.phone.verifyCode(phone: number, code: Self.wrong, client: Self.stranger, logger: h.logger)
                }
                let tokens = try await PhoneSignInTests.verify(h, number, code: try await PhoneSignInTests.code(h, number))
                #expect(tokens.isNewUser == (round == 0))
                h.clock.advance(by: 61)
            }
        }
    }

    @Test func theGuessingAddressIsThrottledAndTheOwnersIsNot() async throws {
        var limits = RateLimitSettings()
        limits.codePerClient = RateLimitRule(name: "code.client", freeAttempts: 3, window: 3600, baseBlock: 60, maxBlock: 900)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            let number = PhoneSignInTests.number
            var answers: [GatehouseError.Code?] = []
            for _ in 0..<5 {
                do {
                    _ = try await h.phone.verifyCode(phone: number, code: Self.wrong, client: Self.stranger, logger: h.logger)
                } catch {
                    answers.append(GatehouseError.Code.of(error))
                }
            }
            #expect(answers == [.codeMismatch, .codeMismatch, .codeMismatch, .codeMismatch, .tooManyRequests], "\(answers)")
            _ = try await PhoneSignInTests.send(h, number)
            _ = try await PhoneSignInTests.verify(h, number, code: try await PhoneSignInTests.code(h, number))
        }
    }

    @Test(arguments: TestDatabase.available)
    func strangersGuessesDoNotKeepTheOwnerOutOfConfirmationOrReset(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let email = "owner@example.com"
            _ = try await h.passwords.signUp(email: email, password: "correct horse 9", fullName: nil, client: h.client, logger: h.logger)
            // Delivered now, so the resend's mail below is the latest one.
            _ = try require(await h.mailer.latestCode(to: email, kind: "confirm_signup"))
            for _ in 0..<24 {
                await #expect(throws: GatehouseError.self) {
                    try await h.passwords.confirmSignUp(email: email, code: Self.wrong, client: Self.stranger, logger: h.logger)
                }
                h.clock.advance(by: 6.25)
            }
            _ = try await h.passwords.resendConfirmationCode(email: email, client: h.client, logger: h.logger)
            let confirm = try require(await h.mailer.latestCode(to: email, kind: "confirm_signup"))
            try await h.passwords.confirmSignUp(email: email, code: confirm, client: h.client, logger: h.logger)

            for _ in 0..<24 {
                await #expect(throws: GatehouseError.self) {
                    try await h.passwords.resetPassword(
                        email: email,
                        code: Self.wrong,
                        newPassword: "other horse 10",
                        client: Self.stranger,
                        logger: h.logger
                    )
                }
                h.clock.advance(by: 6.25)
            }
            _ = try await h.passwords.forgotPassword(email: email, client: h.client, logger: h.logger)
            let reset = try require(await h.mailer.latestCode(to: email, kind: "reset_password"))
            try await h.passwords.resetPassword(email: email, code: reset, newPassword: "other horse 10", client: h.client, logger: h.logger)
            _ = try await h.passwords.signIn(email: email, password: "other horse 10", client: h.client, logger: h.logger)
        }
    }

    @Test(arguments: TestDatabase.available)
    func strangersGuessesDoNotKeepTheOwnerFromAddingTheirNumber(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let number = PhoneLinkingTests.number
            let stranger = try await h.me(try await h.confirmedUser("mallory@example.com"))
            let owner = try await h.me(try await h.confirmedUser("owner@example.com"))
            for _ in 0..<24 {
                await #expect(throws: GatehouseError.self) {
                    try await h.phone.verifyNumber(principal: stranger, phone: number, code: Self.wrong, client: Self.stranger, logger: h.logger)
                }
                h.clock.advance(by: 6.25)
            }
            _ = try await h.phone.addNumber(principal: owner, phone: number, client: h.client, logger: h.logger)
            let code = try require(await h.texts.latestCode(to: number))
            try await h.phone.verifyNumber(principal: owner, phone: number, code: code, client: h.client, logger: h.logger)
            #expect(try await h.store.read { try await $0.user(phone: number) }?.id == owner.sub)
        }
    }
}
