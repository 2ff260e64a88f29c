import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

/// An SRP sign-in is a password sign-in: a refused one costs one attempt from the client's bucket and
/// one from the account's, no more, whichever way it fails (a wrong proof, a forged secret block) and
/// whichever API the other attempts came through.
@Suite("Pool: an SRP sign-in costs what a password sign-in costs", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SRPThrottleTests {
    /// A finished SRP sign-in with a proof that does not verify (a wrong password, as far as the
    /// server can tell), or with a secret block that does not open.
    static func wrongSRP(_ h: PoolHarness, _ email: String, forged: Bool = false) async -> String {
        do {
            let challenge = try await h.passwords.startSRP(
                email: email,
                publicA: CognitoSRPHex.hex([2]),
                clientID: "client-1",
                client: h.client,
                logger: h.logger
            )
            let claim = SRPClaim(
                secretBlock: forged ? Data(repeating: 7, count: 200).base64EncodedString() : challenge.secretBlock,
                timestamp: CognitoSRPTimestamp.format(h.clock.now()),
                signature: Data(repeating: 9, count: 32).base64EncodedString()
            )
            _ = try await h.passwords.finishSRP(claim, clientID: "client-1", client: h.client, logger: h.logger)
            return "signed in"
        } catch {
            return GatehouseError.Code.of(error)?.rawValue ?? "\(error)"
        }
    }

    static func wrongPassword(_ h: PoolHarness, _ email: String) async -> String {
        do {
            _ = try await h.passwords.signIn(email: email, password: "wrong horse 1", client: h.client, logger: h.logger)
            return "signed in"
        } catch {
            return GatehouseError.Code.of(error)?.rawValue ?? "\(error)"
        }
    }

    static func settings(clientFree: Int, accountFree: Int) -> PoolSettings {
        var limits = RateLimitSettings()
        let generous = RateLimitRule(name: "generous", freeAttempts: 1000, window: 3600)
        limits.mailPerClient = generous
        limits.signInPerClient = RateLimitRule(name: "signin.client", freeAttempts: clientFree, window: 3600, baseBlock: 600, maxBlock: 600)
        limits.signInPerAccount = RateLimitRule(name: "signin.account", freeAttempts: accountFree, window: 3600, baseBlock: 600, maxBlock: 600)
        return PoolSettings(rateLimits: limits)
    }

    /// Five free attempts for the client, spread over accounts that are never the limit: the sixth
    /// refusal blocks the client, the seventh attempt is throttled, as with passwords alone.
    @Test(.enabled(if: CognitoSRP.system != nil), arguments: TestDatabase.available)
    func eachRefusedSRPSignInCostsTheClientOneAttempt(_ database: TestDatabase) async throws {
        try await PoolHarness.run(database: database, settings: Self.settings(clientFree: 5, accountFree: 100)) { h in
            let emails = (1...3).map { "srp\($0)@example.com" }
            for email in emails { try await h.confirmedUser(email) }
            var srpOnly: [String] = []
            for index in 0..<7 { srpOnly.append(await Self.wrongSRP(h, emails[index % 3])) }
            #expect(srpOnly == Array(repeating: "invalid_credentials", count: 6) + ["too_many_requests"])
        }
        // The same budget spent on every kind of refusal at once.
        try await PoolHarness.run(database: database, settings: Self.settings(clientFree: 5, accountFree: 100)) { h in
            try await h.confirmedUser("mixed@example.com")
            var mixed: [String] = []
            mixed.append(await Self.wrongSRP(h, "mixed@example.com"))
            mixed.append(await Self.wrongPassword(h, "mixed@example.com"))
            mixed.append(await Self.wrongSRP(h, "mixed@example.com", forged: true))
            mixed.append(await Self.wrongSRP(h, "mixed@example.com"))
            mixed.append(await Self.wrongPassword(h, "mixed@example.com"))
            mixed.append(await Self.wrongSRP(h, "mixed@example.com"))
            mixed.append(await Self.wrongSRP(h, "mixed@example.com"))
            #expect(mixed == Array(repeating: "invalid_credentials", count: 6) + ["too_many_requests"])
        }
    }

    /// The account's bucket, likewise: two free attempts, the third refusal blocks, the fourth is throttled.
    @Test(.enabled(if: CognitoSRP.system != nil), arguments: TestDatabase.available)
    func eachRefusedSRPSignInCostsTheAccountOneAttempt(_ database: TestDatabase) async throws {
        try await PoolHarness.run(database: database, settings: Self.settings(clientFree: 100, accountFree: 2)) { h in
            try await h.confirmedUser("account@example.com")
            var answers: [String] = []
            for _ in 0..<4 { answers.append(await Self.wrongSRP(h, "account@example.com")) }
            #expect(answers == ["invalid_credentials", "invalid_credentials", "invalid_credentials", "too_many_requests"])
            #expect(await Self.wrongPassword(h, "account@example.com") == "too_many_requests")
        }
    }
}
