import Logging

/// Sessions: refreshing tokens, signing out (one session or all), and authenticating a bearer
/// token. Counts refreshes under `refresh`, throttles unknown refresh tokens per client, and
/// publishes what a flow ended.
public struct Sessions: Sendable {
    let strategy: any SessionStrategy
    let limiter: RateLimiter
    let events: any AuthEventObserver
    let domainEvents: DomainEvents
    /// Whether a token's session still counts (ended sessions, deleted users), cached.
    let liveness: CachedSessionLiveness

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The active provider's session strategy.
    ///   - liveness: The session-liveness cache bearer authentication reads.
    ///   - limiter: Counts unknown refresh tokens per client.
    ///   - events: Where refresh outcomes are counted.
    ///   - domainEvents: Where ended sessions are published.
    public init(
        strategy: any SessionStrategy,
        liveness: CachedSessionLiveness,
        limiter: RateLimiter,
        events: any AuthEventObserver,
        domainEvents: DomainEvents
    ) {
        self.strategy = strategy
        self.liveness = liveness
        self.limiter = limiter
        self.events = events
        self.domainEvents = domainEvents
    }

    /// Exchanges a refresh token for new tokens.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: New tokens.
    /// - Throws: `invalid_grant`, `too_many_requests`.
    public func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("refresh") {
            switch try await strategy.refresh(refreshToken: refreshToken, client: client, logger: logger) {
            case .issued(let tokens):
                return tokens
            case .refused(let ended):
                domainEvents.publish(ended)
                throw GatehouseError.invalidGrant
            case .unknownToken:
                // Counted (atomically) against the client; a client past the limit gets 429.
                _ = try await limiter.reserve([limiter.bucket(limiter.settings.refreshPerClient, client: client)])
                logger.info("refresh refused", metadata: ["reason": "unknown token"])
                throw GatehouseError.invalidGrant
            }
        }
    }

    /// Ends the session a refresh token belongs to; unknown tokens are accepted silently.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - logger: The request's logger.
    /// - Throws: An upstream error when the provider cannot be reached.
    public func signOut(refreshToken: String, logger: Logger) async throws {
        domainEvents.publish(try await strategy.signOut(refreshToken: refreshToken, logger: logger))
    }

    /// Ends every session of the caller; their access tokens stop working here at once.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Throws: An upstream error when the provider cannot be reached.
    public func signOutEverywhere(principal: Principal, logger: Logger) async throws {
        domainEvents.publish(try await strategy.signOutEverywhere(principal: principal, logger: logger))
    }

    /// The caller of a protected endpoint: the strategy checks the token's signature and claims,
    /// then its session must be live here (not ended, its user not deleted). The one bearer check of
    /// the native API, the Cognito API and the hosted UI.
    /// - Parameters:
    ///   - bearer: The access token from `Authorization: Bearer`.
    ///   - logger: The request's logger.
    /// - Returns: The caller, with a live session.
    /// - Throws: `unauthorized`, `upstream_unavailable` when the provider's keys cannot be fetched.
    public func authenticate(bearer: String, logger: Logger) async throws -> Principal {
        let verified = try await strategy.verifyBearer(bearer)
        let claims = verified.claims
        guard try await liveness.isLive(sessionID: verified.livenessKey, sub: claims.sub) else {
            throw GatehouseError.unauthorized(cause: "session ended or user deleted")
        }
        return Principal(
            sub: claims.sub,
            username: claims.username,
            sessionID: verified.sessionID,
            clientID: claims.clientID,
            scope: claims.scope,
            accessToken: bearer,
            viaIDToken: claims.isIDToken
        )
    }

    /// Whether the provider's storage (and upstream) answers.
    /// - Throws: Whatever the failing dependency threw.
    public func checkReady() async throws {
        try await strategy.checkReady()
    }
}
