import Foundation
import GatehouseInfrastructure

/// Issues the embedded pool's ID and access tokens (Cognito's claim set, RS256 or ES256 as the signing
/// key's algorithm, a `kid` on every token, whole-second times) and verifies access tokens presented to
/// protected endpoints.
public struct TokenService: Sendable {
    /// What the tokens look like and how long they live.
    public let settings: TokenSettings
    /// The signing keys; replaced in place when keys are loaded or rotated.
    public let keyring: Keyring
    let clock: any TimeSource
    let random: any RandomSource
    /// Made at its first use, once start-up has settled the client id it accepts.
    private let builtVerifier = SetOnce<AccessTokenVerifier>("the access-token verifier")
    var verifier: AccessTokenVerifier {
        builtVerifier.valueIfSet
            ?? builtVerifier.set(
                AccessTokenVerifier(
                    issuer: settings.issuer,
                    clientIDs: [settings.clientID],
                    leeway: settings.leeway,
                    acceptIDTokens: settings.acceptIDTokens
                )
            )
    }
    let verified: VerifiedTokenCache?

    /// Creates the service.
    /// - Parameters:
    ///   - settings: Issuer, client id, lifetimes, scope and leeway.
    ///   - keyring: The signing keys.
    ///   - clock: Stamps `iat` and `exp`, and checks them.
    ///   - random: Each token's `jti`.
    ///   - cache: Access tokens already verified, or `nil` to verify every one in full.
    public init(
        settings: TokenSettings,
        keyring: Keyring,
        clock: any TimeSource,
        random: any RandomSource,
        cache: VerifiedTokenCache? = nil
    ) {
        self.settings = settings
        self.keyring = keyring
        self.clock = clock
        self.random = random
        self.verified = cache
    }

    /// The tokens of one sign-in or refresh.
    public struct Issued: Sendable {
        /// The ID token.
        public var idToken: String
        /// The access token.
        public var accessToken: String
        /// The access token's lifetime in seconds (`expires_in`).
        public var expiresIn: Int
        /// Whom the access token authenticates: what a bearer check of it would answer.
        public var principal: Principal
    }

    /// Signs an ID token and an access token for `subject`; both carry the session's id as `origin_jti`.
    /// - Parameters:
    ///   - subject: The user facts for the ID token.
    ///   - session: The session; its `authTime` becomes `auth_time`.
    ///   - nonce: The client's nonce, echoed in the ID token; `nil` leaves the claim out.
    ///   - extra: The custom-claims hook's claims, written after the reserved ones (which they cannot name).
    /// - Returns: The two tokens and the access token's lifetime.
    /// - Throws: The signer's error.
    public func issue(subject: TokenSubject, session: SessionRecord, nonce: String?, extra: ExtraClaims = .none) throws -> Issued {
        let keys = keyring.snapshot
        let now = clock.now().epochSeconds
        let authTime = session.authTime.epochSeconds
        var id = JSONObjectWriter()
        id.string("sub", subject.sub)
        id.string("iss", settings.issuer)
        id.string("aud", settings.clientID)
        id.string("token_use", "id")
        id.integer("auth_time", authTime)
        id.integer("iat", now)
        id.integer("exp", now + Int64(settings.idTokenLifetime))
        id.string("jti", random.uuid())
        id.string("origin_jti", session.id)
        id.string("cognito:username", subject.sub)
        if let email = subject.email { id.string("email", email) }
        id.bool("email_verified", subject.emailVerified)
        if let name = subject.name { id.string("name", name) }
        if let phone = subject.phone {
            id.string("phone_number", phone)
            id.bool("phone_number_verified", true)
        }
        if let nonce { id.string("nonce", nonce) }
        let amr = Self.authenticationMethods(session.method)
        if !amr.isEmpty { id.strings("amr", amr) }
        for name in extra.id.keys.sorted() { id.value(name, extra.id[name]!) }
        var access = JSONObjectWriter()
        access.string("sub", subject.sub)
        access.string("iss", settings.issuer)
        access.string("client_id", settings.clientID)
        access.string("token_use", "access")
        access.string("scope", settings.scope)
        access.integer("auth_time", authTime)
        access.integer("iat", now)
        access.integer("exp", now + Int64(settings.accessTokenLifetime))
        access.string("jti", random.uuid())
        access.string("origin_jti", session.id)
        access.string("username", subject.sub)
        if !amr.isEmpty { access.strings("amr", amr) }
        for name in extra.access.keys.sorted() { access.value(name, extra.access[name]!) }
        let accessToken = try Self.sign(access.finish(), with: keys.accessSigner)
        return Issued(
            idToken: try Self.sign(id.finish(), with: keys.idSigner),
            accessToken: accessToken,
            expiresIn: Int(settings.accessTokenLifetime),
            principal: Principal(
                sub: subject.sub,
                username: subject.sub,
                sessionID: session.id,
                clientID: settings.clientID,
                scope: settings.scope,
                accessToken: accessToken
            )
        )
    }

    /// The `amr` claim (RFC 8176) for a session's method: `pwd`, `sms`, `fed` (Google, Apple), `hwk` (a
    /// passkey: a key held by an authenticator that verified the user), `otp` (an authenticator-app or
    /// recovery code), and `mfa` when more than one factor (or a passkey's two in one) signed the user in.
    /// - Parameter method: The session's method (`password+otp` after a second factor).
    /// - Returns: The values, in order.
    public static func authenticationMethods(_ method: String) -> [String] {
        var values: [String] = []
        for part in method.split(separator: "+") {
            switch part {
            case "password": values.append("pwd")
            case "phone": values.append("sms")
            case "google", "apple": values.append("fed")
            case "passkey": values.append(contentsOf: ["hwk", "user"])
            case "otp": values.append("otp")
            default: break
            }
        }
        if method.contains("+") || method == "passkey" { values.append("mfa") }
        return values
    }

    static func sign(_ claims: [UInt8], with key: SigningKey) throws -> String {
        var header = JSONObjectWriter(capacity: 64)
        header.string("alg", key.algorithm.rawValue)
        header.string("typ", "JWT")
        header.string("kid", key.kid)
        let input = Base64URL.encode(header.finish()) + "." + Base64URL.encode(claims)
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// Verifies signature and claims of an access token (not its session; see ``SessionLiveness``).
    /// - Parameter token: The bearer token as sent.
    /// - Returns: Its verified claims; from the cache when the same text passed before and has not expired.
    /// - Throws: `unauthorized`, whatever the reason (the reason is in `cause`, for the log).
    public func verifyAccessToken(_ token: String) throws(GatehouseError) -> VerifiedAccessToken {
        let now = clock.now()
        if let hit = verified?.get(token, now: now, leeway: settings.leeway) { return hit }
        let keys = keyring.snapshot
        let claims = try verifier.verify(token, keys: keys.accessKeys, idKeys: keys.idKeys, now: now)
        verified?.put(token, claims)
        return claims
    }

    /// The JWKS document.
    public var jwks: [UInt8] { keyring.snapshot.jwks }
}
