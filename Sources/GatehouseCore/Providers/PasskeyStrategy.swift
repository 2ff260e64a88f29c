import Logging

/// What passkeys need of a provider: the account a credential belongs to, and a session once a
/// passkey verified. The embedded pool implements it; with Cognito, passkeys are Cognito's own.
public protocol PasskeyStrategy: Sendable {
    /// The user with this id, if it exists.
    /// - Parameter id: The user's `sub`.
    /// - Returns: The user, or `nil`.
    /// - Throws: A store error.
    func passkeyUser(id: String) async throws -> UserRecord?

    /// The user holding this address, if any.
    /// - Parameter email: The address.
    /// - Returns: The user, or `nil`.
    /// - Throws: A store error.
    func passkeyUser(email: EmailAddress) async throws -> UserRecord?

    /// Starts a session for a user whose passkey verified (`method: passkey`).
    /// - Parameters:
    ///   - userID: The user.
    ///   - client: Who signs in (its device and coarse address go into the session list).
    ///   - logger: The request's logger.
    /// - Returns: The tokens.
    /// - Throws: `invalid_credentials` when the user is gone or unconfirmed.
    func startPasskeySession(userID: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens
}
