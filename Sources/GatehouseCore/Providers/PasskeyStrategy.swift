import Logging

/// What passkeys need of a provider: the account a credential belongs to, and the subject a verified
/// passkey proves. The embedded pool implements it; with Cognito, passkeys are Cognito's own.
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

    /// The user a verified passkey proves, for ``SessionIssuer`` to start a `passkey` session of.
    /// - Parameter userID: The passkey's user.
    /// - Returns: The subject.
    /// - Throws: `invalid_credentials` when the user is gone or unconfirmed.
    func passkeySubject(userID: String) async throws -> VerifiedSubject
}
