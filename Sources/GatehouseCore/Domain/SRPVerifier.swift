/// A user's Cognito SRP verifier as stored: the salt in the clear (it is sent to anyone who starts a
/// sign-in) and the verifier sealed under the master key.
public struct SRPVerifier: Sendable, Equatable {
    /// The salt, as the hex the server sends in `SALT`.
    public var salt: String
    /// The verifier, sealed (``SecretBox``) for its user, pool and password hash.
    public var sealed: String

    /// - Parameters:
    ///   - salt: The salt in hex.
    ///   - sealed: The sealed verifier.
    public init(salt: String, sealed: String) {
        self.salt = salt
        self.sealed = sealed
    }
}
