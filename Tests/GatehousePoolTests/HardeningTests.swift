import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import GatehouseTesting
import Testing

/// The defects a security review found in the pool's flows (issue 11), each shown fixed on a real
/// store: SQLite and, where storage decides the outcome, PostgreSQL at READ COMMITTED.
@Suite("Pool: hardening (refresh chains, concurrent throttles, caps, lifetimes)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct HardeningTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static func countingHasher() -> CountingHasher {
        CountingHasher(
            ScryptPasswordHasher(
                parameters: .init(logN: 4),
                pool: BlockingWorkPool(label: "c", width: 2, limits: .init(maxQueued: 10_000, perLane: 10_000, maxWait: 300)).start()
            )
        )
    }

    /// Whoever holds one refresh token of a session (a log, a backup, a stolen device image) used to be
    /// able to compute every later one offline and present the newest: accepted, and no reuse ever
    /// detected. Successors now need the server's key.
    @Test(arguments: TestDatabase.available)
    func aStolenRefreshTokenDoesNotGiveItsSuccessors(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let first = try await h.confirmedUser()
            var latest = first
            for _ in 0..<3 { latest = try await h.sessions.refresh(refreshToken: latest.refreshToken, client: h.client, logger: h.logger) }
            var computed = first.refreshToken
            for step in 1...4 {
                computed = RefreshChainAttack.successor(of: computed)
                await #expect("computed successor \(step)") {
                    try await h.sessions.refresh(refreshToken: computed, client: ClientInfo(address: "203.0.113.66"), logger: h.logger)
                } throws: {
                    GatehouseError.Code.of($0) == .invalidGrant
                }
            }
            // The owner's session is untouched.
            let next = try await h.sessions.refresh(refreshToken: latest.refreshToken, client: h.client, logger: h.logger)
            _ = try await h.me(next)
        }
    }

    /// Well-formed refresh tokens that are not ours count against the client's address: past the
    /// limit the client gets 429 for them, while its valid tokens and other clients are unaffected.
    @Test func unknownRefreshTokensAreThrottledPerClient() async throws {
        var limits = RateLimitSettings()
        limits.refreshPerClient = RateLimitRule(name: "refresh.client", freeAttempts: 5, window: 3600)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            let tokens = try await h.confirmedUser()
            let prober = ClientInfo(address: "203.0.113.5")
            var codes: [String] = []
            for _ in 0..<8 {
                do {
                    _ = try await h.sessions.refresh(refreshToken: RefreshTokenCodec.generate(SystemRandomSource()), client: prober, logger: h.logger)
                } catch let error as GatehouseError { codes.append(error.code.rawValue) }
            }
            #expect(codes == Array(repeating: "invalid_grant", count: 6) + ["too_many_requests", "too_many_requests"])
            // A valid token from the same address still works; other addresses are not throttled.
            _ = try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: prober, logger: h.logger)
            await #expect {
                try await h.sessions.refresh(refreshToken: RefreshTokenCodec.generate(SystemRandomSource()), client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
        }
    }

    /// 60 wrong passwords sent at once to one account (5 free, the 6th blocks) used to be evaluated
    /// all 60: the counters were read, the hash run, and only then the failure recorded. Reserving the
    /// attempt first, atomically, lets through no more than 60 sequential attempts would (6).
    @Test(arguments: TestDatabase.available)
    func concurrentWrongPasswordsToOneAccountGetNoMoreEvaluationsThanSequentialOnes(_ database: TestDatabase) async throws {
        let counting = Self.countingHasher()
        let hasher: @Sendable (ScryptPasswordHasher) -> any PasswordHasher = { _ in counting }
        try await PoolHarness.run(database: database, hasher: hasher) { h in
            try await h.confirmedUser("victim@example.com")
            let before = counting.evaluated
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        let client = ClientInfo(address: "198.51.100.\(index)")
                        do {
                            _ = try await h.passwords.signIn(
                                email: "victim@example.com",
                                password: "wrong pass \(index)",
                                client: client,
                                logger: h.logger
                            )
                            return "success"
                        } catch let error as GatehouseError { return error.code.rawValue }
                    }
                }
                return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(counting.evaluated - before == 6)
            #expect(outcomes["invalid_credentials"] == 6 && outcomes["too_many_requests"] == 54)
        }
    }

    /// 120 wrong sign-ins sent at once from one address (30 free an hour) to different accounts: 31
    /// evaluated, as sequentially, not 120.
    @Test(arguments: TestDatabase.available)
    func concurrentWrongPasswordsFromOneAddressGetNoMoreEvaluationsThanSequentialOnes(_ database: TestDatabase) async throws {
        let counting = Self.countingHasher()
        let hasher: @Sendable (ScryptPasswordHasher) -> any PasswordHasher = { _ in counting }
        try await PoolHarness.run(database: database, hasher: hasher) { h in
            let evaluated = try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<120 {
                    group.addTask {
                        _ = try? await h.passwords.signIn(
                            email: "user\(index)@example.com",
                            password: "wrong pass 1",
                            client: h.client,
                            logger: h.logger
                        )
                    }
                }
                try await group.waitForAll()
                return counting.evaluated
            }
            #expect(evaluated == 31)
        }
    }

    /// A code's five tries: concurrent wrong guesses used to all read the old count on PostgreSQL
    /// and each be evaluated. Now each spends a try first, in one statement.
    @Test(arguments: TestDatabase.available)
    func concurrentCodeGuessesSpendAtMostTheCodesTries(_ database: TestDatabase) async throws {
        var limits = RateLimitSettings()
        limits.codePerClient = RateLimitRule(name: "code.client", freeAttempts: 1000, window: 3600)
        try await PoolHarness.run(database: database, settings: PoolSettings(rateLimits: limits)) { h in
            _ = try await h.passwords.signUp(
                email: "guess@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            let code = try require(await h.mailer.latestCode(to: "guess@example.com", kind: "confirm_signup"))
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        _ = try? await h.passwords.confirmSignUp(email: "guess@example.com", code: wrong, client: h.client, logger: h.logger)
                    }
                }
                try await group.waitForAll()
            }
            let user = try require(try await h.store.read { try await $0.user(emailKey: "guess@example.com") })
            let stored = try await h.store.read { try await $0.code(userID: user.id, purpose: .confirmSignUp) }
            #expect(stored?.attempts == 5)
            await #expect {
                try await h.passwords.confirmSignUp(email: "guess@example.com", code: code, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .codeExpired
            }
        }
    }

    /// A session ends its set lifetime after the sign-in, however often its refresh token rotated
    /// (each rotation used to grant a fresh 30 days).
    @Test func sessionsEndAtTheirAbsoluteLifetime() async throws {
        let day: TimeInterval = 86_400
        try await PoolHarness.run(settings: PoolSettings(refreshTokenLifetime: 10 * day, maxSessionLifetime: 15 * day)) { h in
            var tokens = try await h.confirmedUser()
            for _ in 0..<2 {
                h.clock.advance(by: 6 * day)
                tokens = try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: h.client, logger: h.logger)
            }
            _ = try await h.me(tokens)  // day 12: still live
            h.clock.advance(by: 3 * day + 1)  // day 15 and a second: every refresh token is past the session's end
            await #expect { try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
        }
    }

    /// The refresh token issued by the last rotation before the end expires with the session, and
    /// presenting it ends the session and its access tokens.
    @Test func theLastRotationBeforeTheEndCannotOutliveIt() async throws {
        let day: TimeInterval = 86_400
        try await PoolHarness.run(settings: PoolSettings(refreshTokenLifetime: 30 * day, maxSessionLifetime: 2 * day)) { h in
            let first = try await h.confirmedUser()
            h.clock.advance(by: 2 * day - 60)
            let last = try await h.sessions.refresh(refreshToken: first.refreshToken, client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            await #expect { try await h.sessions.refresh(refreshToken: last.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
            let record = try await h.store.read { try await $0.refreshToken(hash: RefreshTokenCodec.hash(last.refreshToken)) }
            #expect(record.map { $0.expiresAt <= $0.createdAt.addingTimeInterval(60) } == true, "the successor expires with the session")
        }
    }

    /// Forgot-password and resend do the same store work for registered and unknown addresses: a
    /// code row is written either way (a decoy for an address without an account), so both answers
    /// take as long.
    @Test(arguments: TestDatabase.available)
    func forgotAndResendWriteACodeRowForUnknownAddressesToo(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let box = try SecretBox(masterKey: Array(repeating: 1, count: 32))
            _ = try await h.passwords.forgotPassword(email: "Nobody@Example.com", client: h.client, logger: h.logger)
            let decoy = "decoy:" + box.keyedHash("decoy-code", "nobody@example.com")
            let resetDecoy = try await h.store.read { try await $0.code(userID: decoy, purpose: .resetPassword) }
            #expect(resetDecoy != nil)
            h.clock.advance(by: 61)
            _ = try await h.passwords.resendConfirmationCode(email: "nobody@example.com", client: h.client, logger: h.logger)
            let confirmDecoy = try await h.store.read { try await $0.code(userID: decoy, purpose: .confirmSignUp) }
            #expect(confirmDecoy != nil)
            let mail = await h.mailer.all
            #expect(mail.isEmpty)
        }
    }

    /// The one-a-minute cool-down alone let ~1,440 code mails a day reach one address. Hourly and
    /// daily caps now apply, to known and unknown addresses alike.
    @Test func codeMailsAreCappedPerHourAndPerDay() async throws {
        var limits = RateLimitSettings()
        limits.mailPerClient = RateLimitRule(name: "mail.client", freeAttempts: 1000, window: 3600)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            try await h.confirmedUser("known@example.com")
            h.clock.advance(by: 3600)  // the sign-up's code mail counted too; start a fresh hour
            for address in ["known@example.com", "unknown@example.com"] {
                var answers: [String] = []
                for _ in 0..<24 {
                    h.clock.advance(by: 61)
                    do {
                        _ = try await h.passwords.forgotPassword(email: address, client: h.client, logger: h.logger)
                        answers.append("ok")
                    } catch let error as GatehouseError { answers.append(error.code.rawValue) }
                }
                // Five in the first hour (the sixth within it is refused); then the next hour's five.
                #expect(answers.prefix(6) == ["ok", "ok", "ok", "ok", "ok", "too_many_requests"], "\(address)")
                #expect(answers.filter { $0 == "ok" }.count <= 10, "\(address)")
            }
            let delivered = await h.mailer.messages(to: "known@example.com").filter { $0.kind == "reset_password" }.count
            #expect(delivered <= 10)
        }
    }

    /// A daily cap holds even when the hourly one would let more through.
    @Test func theDailyCapHoldsAcrossHours() async throws {
        var limits = RateLimitSettings()
        limits.mailPerClient = RateLimitRule(name: "mail.client", freeAttempts: 1000, window: 3600)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            var sent = 0
            for _ in 0..<40 {
                h.clock.advance(by: 61 * 12)  // five an hour at most, so the hourly cap never bites
                if (try? await h.passwords.resendConfirmationCode(email: "flooded@example.com", client: h.client, logger: h.logger)) != nil {
                    sent += 1
                }
            }
            // 40 requests over ~8 hours: the daily cap of 10 stops the rest.
            #expect(sent == 10)
        }
    }

    /// Per-client buckets count an IPv6 client by its /64: one subscriber's 2^64 addresses share
    /// one bucket.
    @Test func ipv6ClientsAreCountedByTheirSlash64() async throws {
        var limits = RateLimitSettings()
        limits.signInPerClient = RateLimitRule(name: "signin.client", freeAttempts: 3, window: 3600)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            var answers: [String] = []
            for index in 1...5 {
                let client = ClientInfo(address: "2001:db8:aa:bb::\(String(index, radix: 16))")
                do {
                    _ = try await h.passwords.signIn(email: "user\(index)@example.com", password: "wrong pass 1", client: client, logger: h.logger)
                } catch let error as GatehouseError { answers.append(error.code.rawValue) }
            }
            #expect(answers == ["invalid_credentials", "invalid_credentials", "invalid_credentials", "invalid_credentials", "too_many_requests"])
            // Another /64 is another client.
            await #expect {
                try await h.passwords.signIn(
                    email: "user9@example.com",
                    password: "wrong pass 1",
                    client: ClientInfo(address: "2001:db8:aa:cc::1"),
                    logger: h.logger
                )
            } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
        }
    }
}

/// Refusals of sign-in attempts are held before they go out, so a client that retries at once (a
/// flood) is slowed to one attempt per connection per delay and cannot eat the CPU other clients'
/// hashes need.
@Suite("Pool: refused attempts are held", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct RefusalDelayTests {
    @Test func aBlockedSignInIsAnsweredAfterTheDelay() async throws {
        var limits = RateLimitSettings()
        limits.signInPerAccount = RateLimitRule(name: "signin.account", freeAttempts: 1, window: 3600, baseBlock: 60, maxBlock: 60)
        limits.refusalDelay = 0.3
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            for _ in 0..<2 {
                _ = try? await h.passwords.signIn(email: "held@example.com", password: "wrong pass 1", client: h.client, logger: h.logger)
            }
            let started = ContinuousClock.now
            await #expect {
                try await h.passwords.signIn(email: "held@example.com", password: "wrong pass 1", client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .tooManyRequests
            }
            #expect(ContinuousClock.now - started >= .milliseconds(300))
        }
    }
}
