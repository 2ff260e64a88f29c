import Foundation

/// Issues the embedded pool's ID and access tokens (Cognito's claim set, RS256, a `kid` on every
/// token, whole-second times) and verifies access tokens presented to protected endpoints.
public struct TokenService: Sendable {
    public let settings: TokenSettings
    public let keyring: Keyring
    let clock: any TimeSource
    let random: any RandomSource
    let verifier: AccessTokenVerifier

    public init(settings: TokenSettings, keyring: Keyring, clock: any TimeSource, random: any RandomSource) {
        self.settings = settings
        self.keyring = keyring
        self.clock = clock
        self.random = random
        self.verifier = AccessTokenVerifier(issuer: settings.issuer, clientIDs: [settings.clientID], leeway: settings.leeway)
    }

    public struct Issued: Sendable {
        public var idToken: String
        public var accessToken: String
        public var expiresIn: Int
    }

    public func issue(subject: TokenSubject, session: SessionRecord, nonce: String?) throws -> Issued {
        let keys = keyring.snapshot
        let now = clock.now().epochSeconds
        let authTime = session.authTime.epochSeconds
        var id: [String: JSONValue] = [
            "sub": .string(subject.sub),
            "iss": .string(settings.issuer),
            "aud": .string(settings.clientID),
            "token_use": "id",
            "auth_time": .number(Double(authTime)),
            "iat": .number(Double(now)),
            "exp": .number(Double(now + Int64(settings.idTokenLifetime))),
            "jti": .string(random.uuid()),
            "origin_jti": .string(session.id),
            "cognito:username": .string(subject.sub),
            "email_verified": .bool(subject.emailVerified),
        ]
        if let email = subject.email { id["email"] = .string(email) }
        if let name = subject.name { id["name"] = .string(name) }
        if let nonce { id["nonce"] = .string(nonce) }
        let access: [String: JSONValue] = [
            "sub": .string(subject.sub),
            "iss": .string(settings.issuer),
            "client_id": .string(settings.clientID),
            "token_use": "access",
            "scope": .string(settings.scope),
            "auth_time": .number(Double(authTime)),
            "iat": .number(Double(now)),
            "exp": .number(Double(now + Int64(settings.accessTokenLifetime))),
            "jti": .string(random.uuid()),
            "origin_jti": .string(session.id),
            "username": .string(subject.sub),
        ]
        return Issued(
            idToken: try Self.sign(.object(id), with: keys.idSigner),
            accessToken: try Self.sign(.object(access), with: keys.accessSigner),
            expiresIn: Int(settings.accessTokenLifetime))
    }

    static func sign(_ claims: JSONValue, with key: SigningKey) throws -> String {
        try CompactJWS.encode(header: ["alg": "RS256", "typ": "JWT", "kid": .string(key.kid)], claims: claims) {
            try key.sign($0)
        }
    }

    /// Verifies signature and claims of an access token (not its session; see ``SessionLiveness``).
    public func verifyAccessToken(_ token: String) throws(GatehouseError) -> VerifiedAccessToken {
        try verifier.verify(token, keys: keyring.snapshot.accessKeys, now: clock.now())
    }

    /// The JWKS document.
    public var jwks: [UInt8] { keyring.snapshot.jwks }
}
