import Foundation

/// Applies ``RateLimitRule``s to buckets kept in the store, so limits hold across every instance that
/// shares the database. Bucket keys are keyed hashes: no email or address is stored in clear.
///
/// Two kinds of limit:
/// - **Failure limits** (sign-in, codes, the current password) are *reserved before the work*
///   (``guarding(_:resetOnSuccess:failureCodes:_:)``): one atomic statement per bucket counts the
///   attempt and refuses it while the bucket is blocked, and the attempt that goes past the free
///   ones sets the block at once. So N concurrent attempts get no more evaluations than N sequential
///   ones, on SQLite and under PostgreSQL's READ COMMITTED alike. An attempt that did not fail is
///   taken back afterwards, as if it had not happened.
/// - **Quotas** (mail) count every use and refuse past the window's allowance
///   (``consume(_:)``), all buckets of one request together or none.
public struct RateLimiter: Sendable {
    /// One counter a rule applies to: the rule and the stored key `<rule name>:<keyed hash of the subject>`.
    struct Bucket: Sendable {
        var rule: RateLimitRule
        var key: String
    }

    /// Attempts counted by ``reserve(_:)``, to take back with ``release(_:)``.
    struct Reservation: Sendable {
        struct Entry: Sendable {
            var bucket: Bucket
            var windowStart: Date
            /// The block this attempt set (it went past the free attempts), if any.
            var blockedUntil: Date?
        }
        var entries: [Entry]
    }

    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let settings: RateLimitSettings

    /// A limiter over the shared store.
    /// - Parameters:
    ///   - store: Where the counters live; every instance on the same database shares them.
    ///   - box: Keys the bucket hashes, so counters name no email or address in clear.
    ///   - clock: Times windows and blocks.
    ///   - settings: The rules to apply.
    public init(store: any GatehouseStore, box: SecretBox, clock: any TimeSource, settings: RateLimitSettings) {
        self.store = store
        self.box = box
        self.clock = clock
        self.settings = settings
    }

    /// The bucket of `rule` for `subject` (an email key, a user id).
    func bucket(_ rule: RateLimitRule, _ subject: String) -> Bucket {
        Bucket(rule: rule, key: rule.name + ":" + box.keyedHash("rate-limit", rule.name, subject))
    }

    /// The bucket of `rule` for a client: its address, IPv6 aggregated by /64 (``ClientInfo/rateLimitSubject``).
    func bucket(_ rule: RateLimitRule, client: ClientInfo) -> Bucket {
        bucket(rule, client.rateLimitSubject)
    }

    // MARK: Failure limits

    /// Runs `body` as one attempt against failure limits: reserves the attempt in every bucket first
    /// (429 if any is blocked), keeps it counted when `body` throws one of `failureCodes`, and
    /// otherwise takes it back — after a success, `resetOnSuccess` buckets start afresh.
    /// - Parameters:
    ///   - buckets: The buckets the attempt counts in (e.g. per account and per client).
    ///   - resetOnSuccess: Buckets cleared when `body` returns (the account's, after a correct password).
    ///   - failureCodes: The errors that are the failure being limited (a wrong password, a wrong code).
    ///   - body: The work, done only while the attempt is reserved.
    /// - Returns: What `body` returns.
    /// - Throws: `too_many_requests` with Retry-After when a bucket is blocked; whatever `body` throws.
    func guarding<T: Sendable>(
        _ buckets: [Bucket],
        resetOnSuccess: [Bucket] = [],
        failureCodes: Set<GatehouseError.Code>,
        _ body: () async throws -> T
    ) async throws -> T {
        // A blocked bucket is refused by a read, before any write: a flood of refused attempts
        // costs no write transactions (the reservation below still decides, atomically).
        let reservation = try await holdingRefusals {
            try await ensureAllowed(buckets)
            return try await reserve(buckets)
        }
        let value: T
        do {
            value = try await body()
        } catch {
            if let code = (error as? GatehouseError)?.code, failureCodes.contains(code) { throw error }
            // Not the failure being limited (an unconfirmed account, storage down, cancellation).
            try? await release(reservation)
            throw error
        }
        let resetKeys = Set(resetOnSuccess.map(\.key))
        let released = Reservation(entries: reservation.entries.filter { !resetKeys.contains($0.bucket.key) })
        try await release(released)
        if !resetOnSuccess.isEmpty { try await reset(resetOnSuccess) }
        return value
    }

    /// Runs `body`; a 429 it throws goes out only after ``RateLimitSettings/refusalDelay``.
    /// - Parameter body: Work that may refuse with `too_many_requests`.
    /// - Returns: What `body` returns.
    func holdingRefusals<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as GatehouseError where error.code == .tooManyRequests {
            if settings.refusalDelay > 0 { try? await Task.sleep(nanoseconds: UInt64(settings.refusalDelay * 1e9)) }
            throw error
        }
    }

    /// Counts one attempt in every bucket, in one transaction, unless one of them is blocked: then
    /// nothing is counted and 429 is thrown. The attempt past a bucket's free ones blocks it at once
    /// (for as long as its failure would), so concurrent attempts cannot slip in behind it.
    /// - Parameter buckets: The buckets to count in.
    /// - Returns: The reservation, for ``release(_:)``.
    /// - Throws: `too_many_requests` with the longest remaining block as Retry-After.
    func reserve(_ buckets: [Bucket]) async throws -> Reservation {
        let now = clock.now()
        let entries = try await store.write { tx in
            var entries: [Reservation.Entry] = []
            for bucket in buckets {
                guard let counter = try await tx.reserveAttempt(bucket: bucket.key, now: now, window: bucket.rule.window) else {
                    let blockedUntil = try await tx.counter(bucket: bucket.key)?.blockedUntil ?? now.addingTimeInterval(1)
                    throw GatehouseError.tooManyRequests(retryAfter: Int(blockedUntil.timeIntervalSince(now).rounded(.up)))
                }
                var blockedUntil: Date?
                if let block = bucket.rule.block(afterFailures: counter.count) {
                    blockedUntil = now.addingTimeInterval(block)
                    try await tx.setBlockedUntil(bucket: bucket.key, until: blockedUntil!)
                }
                entries.append(.init(bucket: bucket, windowStart: counter.windowStart, blockedUntil: blockedUntil))
            }
            return entries
        }
        return Reservation(entries: entries)
    }

    /// Takes back a reserved attempt (it did not fail): its count and the block it set, if still in place.
    /// - Parameter reservation: What ``reserve(_:)`` returned.
    func release(_ reservation: Reservation) async throws {
        guard !reservation.entries.isEmpty else { return }
        try await store.write { tx in
            for entry in reservation.entries {
                try await tx.releaseAttempt(bucket: entry.bucket.key, windowStart: entry.windowStart, blockedUntil: entry.blockedUntil)
            }
        }
    }

    /// Throws 429 if any bucket is blocked now. For limits on failures too cheap to reserve for
    /// (a forged provider token is refused in microseconds), checked after the failure.
    func ensureAllowed(_ buckets: [Bucket]) async throws {
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
    func recordFailure(_ buckets: [Bucket]) async throws {
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

    // MARK: Quotas

    /// Uses one unit of every bucket's quota; throws 429 (and uses none) when any is spent.
    /// - Parameter buckets: The quotas one request draws on together.
    /// - Throws: `too_many_requests` with the time until the spent window ends.
    func consume(_ buckets: [Bucket]) async throws {
        if let wait = try await tryConsume(buckets) {
            throw GatehouseError.tooManyRequests(retryAfter: Int(wait.rounded(.up)))
        }
    }

    /// Uses one unit of every bucket's quota, all or none, in one transaction.
    /// - Parameter buckets: The quotas one request draws on together.
    /// - Returns: `nil` when every quota had room (all are used); otherwise the seconds until the
    ///   longest spent window ends (none is used).
    func tryConsume(_ buckets: [Bucket]) async throws -> TimeInterval? {
        struct Spent: Error { var wait: TimeInterval }
        let now = clock.now()
        do {
            try await store.write { tx in
                var wait: TimeInterval?
                for bucket in buckets {
                    let counter = try await tx.incrementCounter(bucket: bucket.key, now: now, window: bucket.rule.window)
                    if counter.count > bucket.rule.freeAttempts {
                        let left = max(1, counter.windowStart.addingTimeInterval(bucket.rule.window).timeIntervalSince(now))
                        wait = max(wait ?? 0, left)
                    }
                }
                // Throwing rolls the whole transaction back: a refused request uses no quota.
                if let wait { throw Spent(wait: wait) }
            }
            return nil
        } catch let spent as Spent {
            return spent.wait
        }
    }

    /// The mail quotas of a code mail to `emailKey` asked for by `client`: the client's, the address's
    /// cool-down, and the address's hourly and daily caps.
    func mailBuckets(emailKey: String, client: ClientInfo) -> (client: Bucket, address: [Bucket]) {
        (
            bucket(settings.mailPerClient, client: client),
            [
                bucket(settings.mailPerAddress, emailKey), bucket(settings.mailPerAddressHourly, emailKey),
                bucket(settings.mailPerAddressDaily, emailKey),
            ]
        )
    }

    /// The quotas of one SMS code to `number` asked for by `client`: the number's cool-down, hourly and
    /// daily caps, the client's, the number range's and the server's daily cap.
    func smsBuckets(number: PhoneNumber, client: ClientInfo) -> [Bucket] {
        [
            bucket(settings.smsPerNumber, number.e164), bucket(settings.smsPerNumberHourly, number.e164),
            bucket(settings.smsPerNumberDaily, number.e164), bucket(settings.smsPerClient, client: client),
            bucket(settings.smsPerPrefix, number.rangePrefix), bucket(settings.smsDaily, "all"),
        ]
    }

    /// Clears the buckets (a correct password clears the account's failures).
    func reset(_ buckets: [Bucket]) async throws {
        try await store.write { tx in
            for bucket in buckets { try await tx.deleteCounter(bucket: bucket.key) }
        }
    }
}
