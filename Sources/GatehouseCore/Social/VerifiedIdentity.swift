import Crypto
import Foundation
import GatehouseInfrastructure

/// What a provider's ID token proved, after every check passed.
public struct VerifiedIdentity: Sendable, Equatable {
    /// The providers whose ID tokens we accept; the raw value names them in logs, errors and stored identities.
    public enum Provider: String, Sendable, CaseIterable {
        case google
        case apple
    }

    /// Who issued the token.
    public var provider: Provider
    /// The provider's stable subject: the identity key, never the email.
    public var subject: String
    /// The `email` claim, normalised (``EmailAddress``); `nil` when absent or not an address we accept.
    public var email: String?
    /// The provider says it verified `email` (at some point). That alone never links accounts: see
    /// ``emailAuthoritative``.
    public var emailVerified: Bool
    /// The provider is authoritative for `email` (it hosts the mailbox), so the address may link this
    /// identity to an existing account, claim it from an unconfirmed sign-up, or become a new
    /// account's unique address. Implies ``emailVerified``. Google: a verified gmail.com or
    /// googlemail.com address, or a Workspace account (a non-empty `hd`); any other Google account was
    /// registered with an outside address Google checked once and does not control. Apple: any
    /// verified address (its own accounts and its relay).
    public var emailAuthoritative: Bool
    /// Apple's Hide My Email relay address.
    public var isPrivateEmail: Bool
    /// Google's `name` claim (Apple never puts the name in the token).
    public var name: String?
    /// The `aud` the token was issued to (the client id that received it).
    public var audience: String
    /// The token's `c_hash` (Apple: the left half of the SHA-256 of the authorization code issued
    /// with it, base64url), if it has one: a code presented with the token must match it.
    public var authorizationCodeHash: String?

    /// Creates an identity from checked claims.
    /// - Parameters:
    ///   - provider: Who issued the token.
    ///   - subject: The provider's stable subject.
    ///   - email: The normalised address, if any.
    ///   - emailVerified: The provider verified `email`.
    ///   - emailAuthoritative: The provider hosts the mailbox; kept only when `emailVerified` is true.
    ///   - isPrivateEmail: The address is Apple's relay.
    ///   - name: Google's `name` claim.
    ///   - audience: The `aud` the token was issued to.
    public init(
        provider: Provider,
        subject: String,
        email: String?,
        emailVerified: Bool,
        emailAuthoritative: Bool,
        isPrivateEmail: Bool,
        name: String?,
        audience: String
    ) {
        self.provider = provider
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.emailAuthoritative = emailVerified && emailAuthoritative
        self.isPrivateEmail = isPrivateEmail
        self.name = name
        self.audience = audience
    }

    /// What this sign-in says of Apple's relay: ``isPrivateEmail`` for an Apple token that carries an
    /// address (Apple omits `is_private_email` for a shared real address), `nil` otherwise (another
    /// provider, or an Apple token without an address, which says nothing about it).
    public var relayFlag: Bool? {
        provider == .apple && email != nil ? isPrivateEmail : nil
    }
}

/// A provider sign-in as the HTTP layer hands it to an ``IdentityProvider``.
public struct ProviderSignIn: Sendable {
    /// What the provider's ID token proved.
    public var identity: VerifiedIdentity
    /// The raw nonce the client sent (already checked against the token), echoed into our ID token.
    public var nonce: String?
    /// A display name from the request body (Apple sends the name only once, outside the token).
    public var fullNameHint: String?
    /// Apple's one-time authorization code, exchanged for a refresh token to revoke at deletion.
    public var appleAuthorizationCode: String?
    /// The redirect URI the code was issued for (web flow only).
    public var appleRedirectURI: String?

    /// Creates a sign-in.
    /// - Parameters:
    ///   - identity: What the token proved.
    ///   - nonce: The raw nonce the client sent, or `nil`.
    ///   - fullNameHint: A display name from the request body, or `nil`.
    ///   - appleAuthorizationCode: Apple's one-time code, to keep a refresh token for revocation.
    ///   - appleRedirectURI: The redirect URI the code was issued for (web flow only).
    public init(
        identity: VerifiedIdentity,
        nonce: String?,
        fullNameHint: String?,
        appleAuthorizationCode: String? = nil,
        appleRedirectURI: String? = nil
    ) {
        self.identity = identity
        self.nonce = nonce
        self.fullNameHint = fullNameHint
        self.appleAuthorizationCode = appleAuthorizationCode
        self.appleRedirectURI = appleRedirectURI
    }
}

extension VerifiedIdentity {
    /// Whether `code` may be the authorization code issued with this token: true when the token
    /// carries no `c_hash`, else whether the code hashes to it (OpenID Connect Core 3.3.2.11).
    /// - Parameter code: The authorization code presented with the token.
    /// - Returns: Whether the two belong together as far as the token can tell.
    public func matchesAuthorizationCode(_ code: String) -> Bool {
        guard let expected = authorizationCodeHash else { return true }
        let digest = Array(SHA256.hash(data: Array(code.utf8)))
        return ConstantTime.equals(Base64URL.encode(Array(digest.prefix(16))), expected)
    }
}
