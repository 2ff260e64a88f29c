import Foundation

/// What a provider's ID token proved, after every check passed.
public struct VerifiedIdentity: Sendable, Equatable {
    public enum Provider: String, Sendable, CaseIterable {
        case google
        case apple
    }

    public var provider: Provider
    /// The provider's stable subject: the identity key, never the email.
    public var subject: String
    public var email: String?
    /// Only a provider-verified address is ever used to link accounts.
    public var emailVerified: Bool
    /// Apple's Hide My Email relay address.
    public var isPrivateEmail: Bool
    /// Google's `name` claim (Apple never puts the name in the token).
    public var name: String?
    /// The `aud` the token was issued to (the client id that received it).
    public var audience: String

    public init(provider: Provider, subject: String, email: String?, emailVerified: Bool, isPrivateEmail: Bool, name: String?, audience: String) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.name = name
        self.audience = audience
    }
}

/// A provider sign-in as the HTTP layer hands it to an ``IdentityProvider``.
public struct ProviderSignIn: Sendable {
    public var identity: VerifiedIdentity
    /// The raw nonce the client sent (already checked against the token), echoed into our ID token.
    public var nonce: String?
    /// A display name from the request body (Apple sends the name only once, outside the token).
    public var fullNameHint: String?
    /// Apple's one-time authorization code, exchanged for a refresh token to revoke at deletion.
    public var appleAuthorizationCode: String?
    /// The redirect URI the code was issued for (web flow only).
    public var appleRedirectURI: String?

    public init(identity: VerifiedIdentity, nonce: String?, fullNameHint: String?, appleAuthorizationCode: String? = nil, appleRedirectURI: String? = nil) {
        self.identity = identity
        self.nonce = nonce
        self.fullNameHint = fullNameHint
        self.appleAuthorizationCode = appleAuthorizationCode
        self.appleRedirectURI = appleRedirectURI
    }
}
