import Foundation
import GatehouseCore
import GatehouseTesting
import Testing

/// Throttle blocks are stored at the clock's resolution: the documented one-second first block lasts
/// one second, not whatever is left of the current second (whole seconds rounded down made it last
/// 0.37–0.47 s in the review).
@Suite("Pool: throttle blocks last as long as documented", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ThrottleResolutionTests {
    @Test(arguments: TestDatabase.available)
    func aOneSecondBlockLastsOneSecond(_ database: TestDatabase) async throws {
        var limits = RateLimitSettings()
        limits.signInPerAccount = RateLimitRule(name: "signin.account", freeAttempts: 1, window: 3600, baseBlock: 1, maxBlock: 900)
        limits.refusalDelay = 0
        try await PoolHarness.run(database: database, settings: PoolSettings(rateLimits: limits)) { h in
            _ = try await h.confirmedUser("block@example.com")
            h.clock.advance(by: 0.6)  // mid-second, where rounding down cut the block short
            func signIn(_ password: String) async throws -> AuthTokens {
                try await h.passwords.signIn(email: "block@example.com", password: password, client: h.client, logger: h.logger)
            }
            for _ in 0..<2 {  // the first failure is free; the second blocks for one second
                await #expect { _ = try await signIn("wrong horse 9") } throws: { GatehouseError.Code.of($0) == .invalidCredentials }
            }
            h.clock.advance(by: 0.9)
            await #expect { _ = try await signIn("correct horse 9") } throws: {
                GatehouseError.Code.of($0) == .tooManyRequests && ($0 as? GatehouseError)?.retryAfter == 1
            }
            h.clock.advance(by: 0.1)
            _ = try await signIn("correct horse 9")
        }
    }
}
