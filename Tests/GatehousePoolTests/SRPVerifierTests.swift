import Foundation
import GatehouseCore
import GatehouseStore
import GatehouseTesting
import Testing

/// Every password has the SRP verifier that belongs to it: made at sign-up, reset and change, made at
/// the next password sign-in for an account without one, and never usable once the password hash it
/// was sealed with has changed (a password changed by an older instance during a rolling upgrade).
@Suite("Pool: SRP verifiers follow the password", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SRPVerifierTests {
    /// Whether the stored verifier is the one `password` gives, recomputed from its salt.
    static func verifierMatches(_ h: PoolHarness, _ email: String, _ password: String) async throws -> Bool {
        let user = try require(await h.store.read { try await $0.user(emailKey: email) })
        guard let opened = h.srpVerifiers.open(user), let srp = CognitoSRP.system else { return false }
        let salt = try require(CognitoSRPHex.magnitude(fromHex: opened.salt))
        return try srp.verifier(poolName: h.srpVerifiers.pool.name, userIDForSRP: user.id, password: password, salt: salt) == opened.verifier
    }

    @Test(.enabled(if: CognitoSRP.system != nil), arguments: TestDatabase.available)
    func theVerifierIsAlwaysTheCurrentPasswords(_ database: TestDatabase) async throws {
        // Sign-up, change and reset mail one address within a minute: its mail quota is not the subject.
        var limits = RateLimitSettings()
        limits.mailPerAddress = RateLimitRule(name: "mail.address", freeAttempts: 100, window: 60)
        try await PoolHarness.run(database: database, settings: PoolSettings(rateLimits: limits)) { h in
            let email = "srp@example.com"
            let tokens = try await h.confirmedUser(email, password: "first horse 91")
            #expect(try await Self.verifierMatches(h, email, "first horse 91"), "made at sign-up")

            try await h.passwords.changePassword(
                principal: try await h.me(tokens),
                currentPassword: "first horse 91",
                newPassword: "second horse 92",
                client: h.client,
                logger: h.logger
            )
            #expect(try await Self.verifierMatches(h, email, "second horse 92"), "made at a change")
            #expect(try await !Self.verifierMatches(h, email, "first horse 91"))

            _ = try await h.passwords.forgotPassword(email: email, client: h.client, logger: h.logger)
            let code = try require(await h.mailer.latestCode(to: email, kind: "reset_password"))
            try await h.passwords.resetPassword(email: email, code: code, newPassword: "third horse 93", client: h.client, logger: h.logger)
            #expect(try await Self.verifierMatches(h, email, "third horse 93"), "made at a reset")

            // An older instance sets another password's hash and leaves the verifier as it was: the
            // verifier no longer opens, and the next password sign-in makes the right one.
            _ = try await h.confirmedUser("donor@example.com", password: "fourth horse 94")
            try await h.store.write { tx in
                let donor = try require(try await tx.user(emailKey: "donor@example.com"))
                var user = try require(try await tx.user(emailKey: email))
                user.passwordHash = donor.passwordHash
                try await tx.updateUser(user)
            }
            let stale = try require(await h.store.read { try await $0.user(emailKey: email) })
            #expect(stale.srpVerifier != nil && h.srpVerifiers.open(stale) == nil, "a verifier of another password hash does not open")
            _ = try await h.passwords.signIn(email: email, password: "fourth horse 94", client: h.client, logger: h.logger)
            #expect(try await Self.verifierMatches(h, email, "fourth horse 94"), "made again at the next sign-in")

            // An account from before verifiers gets one at its next password sign-in.
            try await h.store.write { tx in
                var user = try require(try await tx.user(emailKey: email))
                user.srpVerifier = nil
                try await tx.updateUser(user)
            }
            _ = try await h.passwords.signIn(email: email, password: "fourth horse 94", client: h.client, logger: h.logger)
            #expect(try await Self.verifierMatches(h, email, "fourth horse 94"), "made for an account that had none")

            // Another pool id: the verifier is not this pool's.
            let user = try require(await h.store.read { try await $0.user(emailKey: email) })
            let otherPool = SRPVerifiers(
                pool: UserPoolID("eu-west-1_Other2"),
                box: try SecretBox(masterKey: Array(repeating: 1, count: 32)),
                random: SystemRandomSource()
            )
            #expect(otherPool.open(user) == nil)
            let stored = try require(user.srpVerifier)
            #expect(!stored.sealed.contains(stored.salt) && stored.sealed.hasPrefix("v1."), "the verifier is stored sealed")
        }
    }
}
