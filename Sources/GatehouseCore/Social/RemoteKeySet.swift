import Foundation
import GatehouseInfrastructure
import Logging

/// The keys of one external issuer (Apple, Google, Cognito), fetched from its JWKS URL.
///
/// - Cached for the `max-age` the issuer sends (clamped to 1 min … 24 h; 1 h when it sends none).
/// - A token naming an unknown `kid` triggers at most one refetch per `unknownKidInterval`, then is refused.
/// - When the issuer is unreachable the last good set keeps serving; only with nothing cached does
///   verification fail, as `upstream_unavailable`.
/// - Concurrent callers share one fetch.
public final class RemoteKeySet: Sendable {
    /// The issuer's name in logs and errors (`google`, `apple`, `cognito`).
    public let issuerName: String
    /// The JWKS URL.
    public let url: String
    let source: any JWKSSource
    let clock: any TimeSource
    let unknownKidInterval: TimeInterval
    let logger: Logger

    struct State {
        var keys: JWSKeySet?
        var expiresAt = Date.distantPast
        var lastFetchAttempt: Date?
        /// The last refetch an unknown `kid` caused; those are rate-limited.
        var lastUnknownKidRefetch: Date?
        var inFlight: Task<JWSKeySet, any Error>?
        var lastFailure: Date?
        var fetchCount = 0
    }
    private let state = LockedBox(State())

    /// Creates the set; nothing is fetched until the first token (or ``refresh()``) needs it.
    /// - Parameters:
    ///   - issuerName: The issuer's name in logs and errors.
    ///   - url: The JWKS URL.
    ///   - source: Fetches the document (HTTPS on the server).
    ///   - clock: Decides when the cached set is stale.
    ///   - unknownKidInterval: Seconds between refetches an unknown `kid` (or a failing issuer) may cause.
    ///   - logger: Logs fetches and failures.
    public init(
        issuerName: String,
        url: String,
        source: any JWKSSource,
        clock: any TimeSource,
        unknownKidInterval: TimeInterval = 60,
        logger: Logger
    ) {
        self.issuerName = issuerName
        self.url = url
        self.source = source
        self.clock = clock
        self.unknownKidInterval = unknownKidInterval
        self.logger = logger
    }

    /// How many fetches were made (for tests and metrics).
    var fetchCount: Int { state.withLock { $0.fetchCount } }

    /// When the cached set goes stale (`distantPast` if none).
    public var expiresAt: Date { state.withLock { $0.expiresAt } }

    /// The key set to verify a token naming `kid` with. The caller still checks that `kid` is in it.
    /// - Parameter kid: The `kid` of the token's header.
    /// - Returns: The cached set, or a freshly fetched one when it is stale or lacks `kid` (within the
    ///   refetch limits); the last good set when a fetch fails.
    /// - Throws: `upstream_unavailable` only when there is no set cached and the fetch fails (or failed
    ///   less than 5 s ago).
    package func keys(containing kid: String) async throws -> JWSKeySet {
        let now = clock.now()
        let (cached, fresh, sinceAttempt, sinceUnknownKid) = state.withLock { s in
            (
                s.keys, s.expiresAt > now, s.lastFetchAttempt.map { now.timeIntervalSince($0) } ?? .infinity,
                s.lastUnknownKidRefetch.map { now.timeIntervalSince($0) } ?? .infinity
            )
        }
        guard let cached else {
            // Nothing to fall back on: fetch, but do not hammer an issuer that just failed.
            if let failed = state.withLock({ $0.lastFailure }), now.timeIntervalSince(failed) < 5 {
                throw GatehouseError.upstreamUnavailable(cause: "\(issuerName) JWKS unreachable moments ago")
            }
            return try await refresh()
        }
        if cached.contains(kid: kid) {
            if fresh { return cached }
            // Stale: try for a fresh set (at most every `unknownKidInterval` while the issuer fails);
            // the last good set keeps serving meanwhile.
            if sinceAttempt >= unknownKidInterval { return (try? await refresh()) ?? cached }
            return cached
        }
        // A kid we have not seen: the provider may have rotated. One refetch, then rate-limited.
        guard sinceUnknownKid >= unknownKidInterval else { return cached }
        state.withLock { $0.lastUnknownKidRefetch = now }
        return (try? await refresh()) ?? cached
    }

    /// Fetches the set now (shared with concurrent callers); keeps the old set if the fetch fails.
    /// - Returns: The fetched set.
    /// - Throws: `upstream_unavailable` when the issuer cannot be reached, or sends no valid RSA keys.
    @discardableResult
    package func refresh() async throws -> JWSKeySet {
        let task: Task<JWSKeySet, any Error> = state.withLock { s in
            if let running = s.inFlight { return running }
            s.lastFetchAttempt = clock.now()
            s.fetchCount += 1
            let task = Task { try await self.fetch() }
            s.inFlight = task
            return task
        }
        do {
            let keys = try await task.value
            state.withLock {
                $0.inFlight = nil
                $0.lastFailure = nil
            }
            return keys
        } catch {
            let now = clock.now()
            state.withLock {
                $0.inFlight = nil
                $0.lastFailure = now
            }
            throw error
        }
    }

    private func fetch() async throws -> JWSKeySet {
        let fetched: (body: [UInt8], maxAge: TimeInterval?)
        do {
            fetched = try await source.fetchJWKS(from: url)
        } catch {
            logger.warning(
                "could not fetch provider keys; keeping the last good set",
                metadata: ["issuer": .string(issuerName), "error": .string("\(error)")]
            )
            throw GatehouseError.upstreamUnavailable(cause: "\(issuerName) JWKS: \(error)")
        }
        let keys: JWSKeySet
        do {
            keys = try JWSKeySet.parseJWKS(fetched.body)
        } catch {
            throw GatehouseError.upstreamUnavailable(cause: "\(issuerName) JWKS is not a valid key set: \(error)")
        }
        guard !keys.isEmpty else { throw GatehouseError.upstreamUnavailable(cause: "\(issuerName) JWKS holds no usable RSA keys") }
        let lifetime = min(max(fetched.maxAge ?? 3600, 60), 86_400)
        let now = clock.now()
        state.withLock { s in
            s.keys = keys
            s.expiresAt = now.addingTimeInterval(lifetime)
        }
        logger.debug("fetched provider keys", metadata: ["issuer": .string(issuerName), "keys": .stringConvertible(keys.keys.count)])
        return keys
    }
}
