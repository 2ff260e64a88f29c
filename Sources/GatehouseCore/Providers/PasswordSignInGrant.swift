/// A password a strategy accepted: what starts the session once the sign-in limits let the
/// attempt go (the pool upgrades a weak hash and records the session; Cognito records its tokens).
public struct PasswordSignInGrant: Sendable {
    let start: @Sendable () async throws -> AuthTokens

    /// Creates a grant.
    /// - Parameter start: Starts the session and returns its tokens.
    public init(start: @escaping @Sendable () async throws -> AuthTokens) {
        self.start = start
    }
}
