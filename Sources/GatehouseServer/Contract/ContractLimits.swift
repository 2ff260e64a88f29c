import GatehouseCore

/// The length limits the contract gives request members, named once.
public enum ContractLimits {
    /// An email address (RFC 5321's path limit).
    public static let email = EmailAddress.maxLength
    /// A password, current or new.
    public static let password = 1024
    /// A display name.
    public static let fullName = 1024
    /// A mailed confirmation or reset code.
    public static let code = 32
    /// A phone number as typed (E.164 is at most 16 characters; spaces and dashes are allowed).
    public static let phone = 64
    /// A refresh token.
    public static let refreshToken = 8192
    /// A provider's identity token (Google's or Apple's JWT).
    public static let identityToken = 16384
    /// Apple's authorization code.
    public static let authorizationCode = 1024
    /// A nonce.
    public static let nonce = 256
    /// A handoff code or PKCE verifier.
    public static let handoff = 256
    /// Apple's user identifier as the seed 003 client sends it (`user_identifier`, compared with the token's `sub`).
    public static let userIdentifier = 256
}
