import Logging

/// Social sign-in on an identity provider: find or create the user a verified provider identity
/// belongs to, and start their session.
public protocol SocialStrategy: Sendable {
    /// Signs in (or up) the user proven by a verified Google or Apple ID token.
    /// - Parameters:
    ///   - signIn: The verified identity, with its display-name hint already checked.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The tokens (with `isNewUser` set) and what changed, to publish.
    /// - Throws: `conflict`, `forbidden` or an upstream error.
    func signInWithProvider(_ signIn: ProviderSignIn, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome
}

/// What a social sign-in produced.
public struct ProviderSignInOutcome: Sendable {
    /// The session's tokens.
    public var tokens: AuthTokens
    /// What changed on the way (a profile refreshed, an unconfirmed sign-up replaced).
    public var events: [DomainEvent]

    /// Creates an outcome.
    /// - Parameters:
    ///   - tokens: The session's tokens.
    ///   - events: What changed.
    public init(tokens: AuthTokens, events: [DomainEvent]) {
        self.tokens = tokens
        self.events = events
    }
}
