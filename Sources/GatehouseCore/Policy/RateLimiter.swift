import Foundation

/// Applies ``RateLimitRule``s to buckets kept in the store, so limits hold across every instance that
/// shares the database. Bucket keys are keyed hashes: no email or address is stored in clear.
public struct RateLimiter: Sendable {
    public struct Bucket: Sendable {
        public var rule: RateLimitRule
        public var key: String
    }

    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    public let settings: RateLimitSettings

    public init(store: any GatehouseStore, box: SecretBox, clock: any TimeSource, settings: RateLimitSettings) {
        self.store = store
        self.box = box
        self.clock = clock
        self.settings = settings
    }

    public func bucket(_ rule: RateLimitRule, _ subject: String) -> Bucket {
        Bucket(rule: rule, key: rule.name + ":" + box.keyedHash("rate-limit", rule.name, subject))
    }

    /// Throws 429 if any bucket is blocked now.
    public func ensureAllowed(_ buckets: [Bucket]) async throws {
        let now = clock.now()
        let counters = try await store.read { tx in
            var result: [RateCounter?] = []
            for bucket in buckets { result.append(try await tx.counter(bucket: bucket.key)) }
            return result
        }
        let wait = counters.compactMap { $0?.blockedUntil }.filter { $0 > now }.map { $0.timeIntervalSince(now) }.max()
        if let wait { throw GatehouseError.tooManyRequests(retryAfter: Int(wait.rounded(.up))) }
    }

    /// Counts a failure in each bucket and blocks the ones past their free attempts.
    public func recordFailure(_ buckets: [Bucket]) async throws {
        let now = clock.now()
        try await store.write { tx in
            for bucket in buckets {
                let counter = try await tx.incrementCounter(bucket: bucket.key, now: now, window: bucket.rule.window)
                if let block = bucket.rule.block(afterFailures: counter.count) {
                    try await tx.setBlockedUntil(bucket: bucket.key, until: now.addingTimeInterval(block))
                }
            }
        }
    }

    /// Uses one unit of a quota; throws 429 when the window's quota is already spent.
    public func consume(_ bucket: Bucket) async throws {
        if let wait = try await tryConsume(bucket) {
            throw GatehouseError.tooManyRequests(retryAfter: Int(wait.rounded(.up)))
        }
    }

    /// Uses one unit of a quota; returns the seconds to wait instead when it is spent.
    public func tryConsume(_ bucket: Bucket) async throws -> TimeInterval? {
        let now = clock.now()
        let counter = try await store.write { tx in
            try await tx.incrementCounter(bucket: bucket.key, now: now, window: bucket.rule.window)
        }
        guard counter.count > bucket.rule.freeAttempts else { return nil }
        return max(1, counter.windowStart.addingTimeInterval(bucket.rule.window).timeIntervalSince(now))
    }

    public func reset(_ buckets: [Bucket]) async throws {
        try await store.write { tx in
            for bucket in buckets { try await tx.deleteCounter(bucket: bucket.key) }
        }
    }
}
