/// The `PASSWORD_VERIFIER` challenge of a Cognito SRP sign-in, as `InitiateAuth` answers it.
public struct SRPChallenge: Sendable, Equatable {
    /// `SALT`: the verifier's salt in hex.
    public var salt: String
    /// `SRP_B`: the server's public value in hex.
    public var srpB: String
    /// `SECRET_BLOCK`: the server's state, sealed, in standard base64.
    public var secretBlock: String
    /// `USER_ID_FOR_SRP`: the user's `sub` (part of the verifier).
    public var userIDForSRP: String
    /// `USERNAME`: the address the sign-in started with.
    public var username: String
}
