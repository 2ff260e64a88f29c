import Logging

/// The sessions of an identity provider: refresh, sign-out and the check of a bearer token's signature.
public protocol SessionStrategy: Sendable {
    /// Exchanges a refresh token for new tokens.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - client: Who asks (unknown tokens count against it).
    ///   - logger: The request's logger.
    /// - Returns: The tokens, or a refusal carrying what the refusal ended.
    /// - Throws: `invalid_grant`, `too_many_requests`.
    func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> RefreshResult

    /// Ends the session a refresh token belongs to (unknown tokens are accepted silently).
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - logger: The request's logger.
    /// - Returns: What ended, to publish.
    /// - Throws: A ``GatehouseError`` when the provider cannot be reached.
    func signOut(refreshToken: String, logger: Logger) async throws -> [DomainEvent]

    /// Ends every session of the caller.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: What ended, to publish.
    /// - Throws: A ``GatehouseError`` when the provider cannot be reached.
    func signOutEverywhere(principal: Principal, logger: Logger) async throws -> [DomainEvent]

    /// Verifies a bearer token's signature and claims against the provider's keys (``Sessions``
    /// then reads whether its session is live).
    /// - Parameter bearer: The access token (or an ID token, where those are accepted).
    /// - Returns: The checked claims and the session they name.
    /// - Throws: `unauthorized`, or `upstream_unavailable` when the provider's keys cannot be fetched.
    func verifyBearer(_ bearer: String) async throws -> VerifiedBearer

    /// Whether storage (and the upstream, for Cognito) answers.
    /// - Throws: Whatever the failing dependency threw.
    func checkReady() async throws
}

/// What a refresh comes to.
public enum RefreshResult: Sendable {
    /// New tokens.
    case issued(AuthTokens)
    /// Refused (`invalid_grant`) after ending something, which the use case publishes.
    case refused(ended: [DomainEvent])
    /// A well-formed token that is not one of ours: refused, and counted against the client.
    case unknownToken
}
