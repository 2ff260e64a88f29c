import Foundation
import GatehouseInfrastructure

/// Verifies Google and Apple ID tokens the way both providers require (SECURITY.md):
/// RS256 only with a `kid` of that provider's own key set (refetched once on an unknown `kid`), the
/// exact issuer (both Google spellings), an allow-listed audience (and Google's `azp`), `exp`/`nbf`/
/// `iat` within 60 s, the nonce as SHA-256 hex of the raw value on both sides or neither, strict
/// boolean-or-string claims, and an optional Google hosted-domain allow-list. It also tells whether
/// the provider is authoritative for the email (``VerifiedIdentity/emailAuthoritative``).
public struct ProviderTokenVerifier: Sendable {
    /// How one provider's tokens are checked.
    public struct Settings: Sendable {
        /// Client ids accepted as `aud` (and as Google's `azp`); empty disables the provider.
        public var allowedAudiences: Set<String>
        /// The provider's signing keys.
        public var keys: RemoteKeySet
        /// Google Workspace domains (`hd`) allowed; empty allows any account.
        public var hostedDomains: Set<String>
        /// Refuse a token without a nonce; otherwise a nonce is checked only when both sides have one
        /// (one side alone is always refused).
        public var requireNonce: Bool
        /// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds (0…60).
        public var leeway: TimeInterval

        /// Creates the settings.
        /// - Parameters:
        ///   - allowedAudiences: Client ids accepted as `aud`; empty disables the provider.
        ///   - keys: The provider's signing keys.
        ///   - hostedDomains: Google Workspace domains allowed; empty allows any account.
        ///   - requireNonce: Refuse tokens without a nonce.
        ///   - leeway: Clock skew in seconds; clamped to 0…60.
        public init(
            allowedAudiences: Set<String>,
            keys: RemoteKeySet,
            hostedDomains: Set<String> = [],
            requireNonce: Bool = false,
            leeway: TimeInterval = 60
        ) {
            self.allowedAudiences = allowedAudiences
            self.keys = keys
            self.hostedDomains = hostedDomains
            self.requireNonce = requireNonce
            self.leeway = min(max(leeway, 0), 60)
        }
    }

    /// The `iss` values of Google's tokens (both spellings Google uses).
    static let googleIssuers: Set<String> = ["accounts.google.com", "https://accounts.google.com"]
    /// The `iss` of Apple's tokens.
    static let appleIssuers: Set<String> = ["https://appleid.apple.com"]

    /// Whose tokens this verifier accepts.
    public let provider: VerifiedIdentity.Provider
    let settings: Settings?
    let clock: any TimeSource

    /// `settings == nil` (no configured audience) disables the provider: every token is refused.
    /// - Parameters:
    ///   - provider: Whose tokens are accepted (picks the issuers and the provider-specific rules).
    ///   - settings: The audiences, keys and options; `nil` or no audience disables the verifier.
    ///   - clock: The time `exp`, `nbf` and `iat` are checked against.
    public init(provider: VerifiedIdentity.Provider, settings: Settings?, clock: any TimeSource) {
        self.provider = provider
        self.settings = settings.flatMap { $0.allowedAudiences.isEmpty ? nil : $0 }
        self.clock = clock
    }

    /// This verifier accepting `audience` alone (same keys and rules): Apple's web flow takes only
    /// tokens issued to its Services ID, never one issued to an app's bundle id.
    /// - Parameter audience: The one audience to accept.
    /// - Returns: The narrowed verifier (disabled if this one is).
    public func accepting(onlyAudience audience: String) -> ProviderTokenVerifier {
        guard var narrowed = settings else { return self }
        narrowed.allowedAudiences = [audience]
        return ProviderTokenVerifier(provider: provider, settings: narrowed, clock: clock)
    }

    /// Whether an audience is configured; a disabled verifier refuses every token with `provider_disabled`.
    public var isEnabled: Bool { settings != nil }
    /// The provider's key set, `nil` when disabled (the server refreshes it in the background).
    public var keySet: RemoteKeySet? { settings?.keys }

    /// Verifies a provider's ID token with every check in the type's description.
    /// - Parameters:
    ///   - token: The compact ID token the client sent.
    ///   - rawNonce: The raw nonce the client sent; the token must carry its SHA-256 in lowercase hex.
    /// - Returns: What the token proves, with ``VerifiedIdentity/emailAuthoritative`` decided.
    /// - Throws: `provider_disabled` when the verifier is off; `upstream_unavailable` when the provider's
    ///   keys cannot be fetched and none are cached; `invalid_token` for any failed check (the reason
    ///   is in `cause`, for the log).
    public func verify(_ token: String, rawNonce: String?) async throws -> VerifiedIdentity {
        guard let settings else {
            let variable = provider == .google ? "GATEHOUSE_GOOGLE_CLIENT_IDS" : "GATEHOUSE_APPLE_CLIENT_IDS"
            throw GatehouseError(
                .providerDisabled,
                "Sign in with \(provider == .google ? "Google" : "Apple") is not enabled on this server.",
                cause: "\(variable) is empty"
            )
        }
        func refuse(_ cause: String) -> GatehouseError { .invalidToken(cause: "\(provider.rawValue): \(cause)") }

        let jws: CompactJWS
        do { jws = try CompactJWS(parsing: token) } catch { throw refuse(error.description) }
        guard jws.algorithm == "RS256" else { throw refuse("alg \(jws.algorithmForLog) is not RS256") }
        guard let kid = jws.keyID else { throw refuse("no kid") }
        let keys = try await settings.keys.keys(containing: kid)
        do { try keys.verify(jws) } catch { throw refuse("signature: \(error)") }

        let claims = jws.claims
        let issuers = provider == .google ? Self.googleIssuers : Self.appleIssuers
        guard let iss = claims["iss"]?.stringValue, issuers.contains(iss) else { throw refuse("issuer not accepted") }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty, sub.utf8.count <= 255 else { throw refuse("bad sub") }

        let audiences: [String]
        switch claims["aud"] {
        case .string(let aud)?: audiences = [aud]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: throw refuse("no aud")
        }
        guard let audience = audiences.first(where: { settings.allowedAudiences.contains($0) }) else { throw refuse("aud not allowed") }
        if audiences.count > 1, claims["azp"] == nil { throw refuse("several audiences and no azp") }
        if let azp = claims["azp"] {
            guard let value = azp.stringValue, settings.allowedAudiences.contains(value) else { throw refuse("azp not allowed") }
        }
        _ = try TimeClaims(claims, now: clock.now(), leeway: settings.leeway, context: "\(provider.rawValue) token") { refuse($0) }

        // Nonce: the client sends the raw value; the token carries its SHA-256 in lowercase hex.
        let tokenNonce = claims["nonce"]?.stringValue
        switch (rawNonce, tokenNonce) {
        case (let raw?, let hashed?):
            guard ConstantTime.equals(Digests.sha256Hex(raw), hashed) else { throw refuse("nonce mismatch") }
        case (nil, nil):
            if settings.requireNonce { throw refuse("this server requires a nonce") }
        case (_?, nil): throw refuse("nonce sent but the token has none")
        case (nil, _?): throw refuse("the token has a nonce but none was sent")
        }

        let emailVerified = try Self.flag(claims["email_verified"], name: "email_verified", refuse: refuse)
        let isPrivate = try Self.flag(claims["is_private_email"], name: "is_private_email", refuse: refuse)
        let email = claims["email"]?.stringValue.flatMap { try? EmailAddress($0) }?.value
        let hostedDomain = provider == .google ? claims["hd"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } : nil
        if provider == .google, !settings.hostedDomains.isEmpty {
            guard let hd = hostedDomain, settings.hostedDomains.contains(hd.lowercased()) else {
                throw refuse("hosted domain not allowed")
            }
        }
        let name = provider == .google ? claims["name"]?.stringValue : nil
        let verified = email != nil && emailVerified
        var identity = VerifiedIdentity(
            provider: provider,
            subject: sub,
            email: email,
            emailVerified: verified,
            emailAuthoritative: verified && Self.isAuthoritative(provider, email: email, hostedDomain: hostedDomain),
            isPrivateEmail: isPrivate,
            name: name,
            audience: audience
        )
        identity.authorizationCodeHash = claims["c_hash"]?.stringValue
        return identity
    }

    /// Google's own domains, where a verified Google address is a Gmail mailbox.
    static let googleMailDomains: Set<String> = ["gmail.com", "googlemail.com"]

    /// Whether the provider is authoritative for the address (it hosts the mailbox), as Google's
    /// guidance puts it for using `email` to link accounts: a gmail.com or googlemail.com address, or
    /// a Google Workspace account (`hd` present), whose domain's administrator Google answers to.
    /// Any other Google account was registered with an outside address that Google checked once; its
    /// owner may since have lost that mailbox. Apple verifies every address it shares (the user's
    /// Apple ID address or its relay).
    static func isAuthoritative(_ provider: VerifiedIdentity.Provider, email: String?, hostedDomain: String?) -> Bool {
        guard let email else { return false }
        switch provider {
        case .apple:
            return true
        case .google:
            if hostedDomain != nil { return true }
            guard let key = try? EmailAddress(email).key, let at = key.lastIndex(of: "@") else { return false }
            return googleMailDomains.contains(String(key[key.index(after: at)...]))
        }
    }

    /// `true`, `false`, `"true"` or `"false"` (Apple sends either); anything else is refused; absent is false.
    static func flag(_ value: JSONValue?, name: String, refuse: (String) -> GatehouseError) throws -> Bool {
        switch value {
        case nil, .null?: return false
        case .bool(let flag)?: return flag
        case .string("true")?: return true
        case .string("false")?: return false
        default: throw refuse("\(name) is neither a boolean nor \"true\"/\"false\"")
        }
    }
}
