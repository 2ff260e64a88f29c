import Logging

/// The sessions of an identity provider: refresh, sign-out and bearer authentication.
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

    /// Verifies a bearer access token and that its session is live.
    /// - Parameters:
    ///   - bearer: The access token.
    ///   - logger: The request's logger.
    /// - Returns: The caller.
    /// - Throws: `unauthorized`.
    func authenticate(bearer: String, logger: Logger) async throws -> Principal

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
