import Logging

/// What the hosted UI needs of a provider beyond signing in: a browser's hosted session is an ordinary
/// session of the pool, so sign-out, refresh-token reuse and account deletion end it as they end any
/// other; each authorization code redeemed in it starts a new refresh-token chain in that session.
/// The embedded pool implements it; the hosted UI is not served with Cognito as the provider.
public protocol HostedSessionStrategy: Sendable {
    /// Issues tokens in an existing session: a new refresh-token chain that ends with the session.
    /// - Parameters:
    ///   - id: The session id.
    ///   - nonce: The client's nonce for the ID token.
    ///   - logger: The request's logger.
    /// - Returns: The tokens.
    /// - Throws: `invalid_grant` when the session has ended, is past its lifetime, or its user is gone or unconfirmed.
    func continueSession(id: String, nonce: String?, logger: Logger) async throws -> AuthTokens

    /// Whether the session is active, within its lifetime, and its user still exists.
    /// - Parameter id: The session id.
    /// - Returns: `true` while the session can issue tokens.
    /// - Throws: A store error.
    func isSessionActive(id: String) async throws -> Bool

    /// Ends one session.
    /// - Parameters:
    ///   - id: The session id.
    ///   - reason: Why.
    ///   - logger: The request's logger.
    /// - Returns: What changed, for the use case to publish.
    /// - Throws: A store error.
    func endSession(id: String, reason: SessionRecord.EndReason, logger: Logger) async throws -> [DomainEvent]
}
