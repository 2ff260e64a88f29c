import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Amazon Cognito behind the same use cases as the embedded pool (its strategy for
/// ``PasswordStrategy``, ``SessionStrategy``, ``SocialStrategy`` and ``AccountStrategy``): Cognito holds
/// the users and issues the tokens; Gatehouse verifies provider tokens itself, keeps the (provider, sub) → Cognito user
/// links (Gatehouse's own rate limits are the use cases'), and records every session it hands out so that sign-out,
/// password changes and deletion end access tokens on our endpoints at once (Cognito's stay valid
/// until `exp`).
public struct CognitoIdentityProvider: IdentityProvider {
    public let name = "cognito"
    public let settings: CognitoSettings
    let client: CognitoClient
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    let appleVault: AppleTokenVault?
    /// The pool's signing keys (refreshed in the background like Apple's and Google's).
    public let keys: RemoteKeySet
    let verifier: AccessTokenVerifier
    /// Serialises social sign-in's admin sign-in per user in this process (so a user's password is
    /// set and stored once); a store lease does it across instances.
    let userLocks = KeyedAsyncLock()
    let instanceID: String

    /// Creates the Cognito strategy.
    /// - Parameters:
    ///   - settings: The pool, client and lifetimes.
    ///   - client: Calls Cognito's API.
    ///   - store: Session records, identity links, sealed passwords.
    ///   - box: Keyed hashes and sealing.
    ///   - clock: The time source.
    ///   - random: Ids and generated passwords.
    ///   - keys: The pool's signing keys.
    ///   - appleVault: Set when Apple credentials are configured.
    public init(
        settings: CognitoSettings,
        client: CognitoClient,
        store: any GatehouseStore,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        keys: RemoteKeySet,
        appleVault: AppleTokenVault? = nil
    ) {
        self.settings = settings
        self.client = client
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
        self.keys = keys
        self.appleVault = appleVault
        self.verifier = AccessTokenVerifier(
            issuer: settings.issuer,
            clientIDs: [settings.clientID],
            leeway: 60,
            requireOriginJTI: false,
            acceptIDTokens: settings.acceptIDTokens
        )
        self.instanceID = random.uuid()
    }

    /// The liveness source for the cache in front of this provider.
    public static func livenessSource(store: any GatehouseStore) -> any SessionLiveness {
        CognitoSessionLiveness(store: store)
    }

    // MARK: Calling Cognito

    /// Calls `operation`; Cognito's errors come back as ``CognitoError`` for the caller to map.
    func call(_ operation: String, _ input: [String: JSONValue], logger: Logger) async throws -> [String: JSONValue] {
        do {
            return try await client.call(operation, .object(input), logger: logger)
        } catch let error as CognitoError {
            throw error
        } catch {
            throw CognitoError(code: "Transport", message: String(describing: type(of: error)), status: 0)
        }
    }

    // MARK: Sessions

    /// Turns an `AuthenticationResult` into our tokens and records the session (named by the access
    /// token's `origin_jti`) and the refresh token's hash, so that ending the session here is final.
    func issued(
        _ output: [String: JSONValue],
        method: String,
        refreshToken presented: String? = nil,
        isNewUser: Bool? = nil,
        logger: Logger
    ) async throws -> AuthTokens {
        guard let result = output["AuthenticationResult"]?.objectValue else {
            let challenge = output["ChallengeName"]?.stringValue ?? "none"
            logger.warning("Cognito asked for a challenge Gatehouse does not handle", metadata: ["cognito.challenge": .string(challenge)])
            throw GatehouseError(.forbidden, "This account needs a sign-in step this app does not support (\(challenge)).")
        }
        guard let idToken = result["IdToken"]?.stringValue, let accessToken = result["AccessToken"]?.stringValue else {
            throw GatehouseError.upstreamUnavailable(cause: "Cognito returned no tokens")
        }
        guard let refreshToken = result["RefreshToken"]?.stringValue ?? presented else {
            throw GatehouseError.upstreamUnavailable(cause: "Cognito returned no refresh token")
        }
        let expiresIn = Int(result["ExpiresIn"]?.int64Value ?? 3600)
        // Read (not verified: it came straight from Cognito over TLS) to learn the session and user.
        let claims: [String: JSONValue]
        do { claims = try CompactJWS(parsing: accessToken).claims } catch {
            throw GatehouseError.upstreamUnavailable(cause: "Cognito returned a malformed access token")
        }
        guard let sub = claims["sub"]?.stringValue else { throw GatehouseError.upstreamUnavailable(cause: "Cognito access token without sub") }
        let sessionID = Self.sessionID(claims)
        let now = clock.now()
        let authTime = claims["auth_time"]?.int64Value.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? now
        let tokenHash = refreshTokenHash(refreshToken)
        let lifetime = settings.refreshTokenLifetime
        try await store.write { tx in
            if try await tx.session(id: sessionID) == nil {
                try await tx.insertSession(SessionRecord(id: sessionID, userID: sub, method: method, authTime: authTime, createdAt: now))
            }
            if try await tx.refreshToken(hash: tokenHash) == nil {
                try await tx.insertRefreshToken(
                    RefreshTokenRecord(
                        tokenHash: tokenHash,
                        sessionID: sessionID,
                        userID: sub,
                        createdAt: now,
                        expiresAt: now.addingTimeInterval(lifetime)
                    )
                )
            }
        }
        let issuedTo = Principal(
            sub: sub,
            username: claims["username"]?.stringValue ?? sub,
            sessionID: sessionID,
            clientID: claims["client_id"]?.stringValue ?? settings.clientID,
            scope: claims["scope"]?.stringValue ?? "",
            accessToken: accessToken
        )
        return AuthTokens(
            idToken: idToken,
            accessToken: accessToken,
            refreshToken: refreshToken,
            expiresIn: expiresIn,
            isNewUser: isNewUser,
            issuedTo: issuedTo
        )
    }

    /// A Cognito session is named by `origin_jti` (kept across refreshes); tokens without one fall back to `jti`.
    static func sessionID(_ claims: [String: JSONValue]) -> String {
        claims["origin_jti"]?.stringValue ?? "jti:" + (claims["jti"]?.stringValue ?? "unknown")
    }

    func refreshTokenHash(_ token: String) -> String {
        box.keyedHash("cognito-refresh-token", token)
    }

    /// Ends sessions here: the listed ones, or all of the user's (`except` one), and — with `cutOff` —
    /// every token of the user issued before now that we never saw (issued by Cognito elsewhere).
    /// Returns the event for the use case to publish.
    func endSessions(sub: String, except: String? = nil, reason: SessionRecord.EndReason, cutOff: Bool) async throws -> [DomainEvent] {
        let now = clock.now()
        try await store.write { tx in
            try await tx.revokeSessions(userID: sub, except: except, at: now, reason: reason)
            if cutOff {
                // Rounded up: a token issued earlier in this second must not survive.
                try await tx.recordSubjectRevocation(
                    sub: sub,
                    revokedBefore: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.up)),
                    deletedAt: nil
                )
            }
        }
        return [.sessionsChanged(sub: sub)]
    }

    // MARK: Inputs

    static let maxPasswordLength = 256
    static let passwordLength = GatehouseError(.invalidPassword, "The password must be 1 to 256 characters.")

    func passwordOrFail(_ password: String, error: GatehouseError) throws -> String {
        guard !password.isEmpty, password.unicodeScalars.count <= Self.maxPasswordLength else { throw error }
        return password
    }

    /// Cognito applies the pool's own policy; here only its length limits (1 to 256 characters).
    /// - Parameters:
    ///   - password: The new password.
    ///   - email: Unused: Cognito's policy decides the rest.
    /// - Throws: `invalid_password`.
    public func checkNewPassword(_ password: String, email: EmailAddress?) throws {
        _ = try passwordOrFail(password, error: Self.passwordLength)
    }

    /// Cognito hashes nothing here: every client is admitted.
    /// - Parameter client: Who asks (unused).
    public func admit(client: ClientInfo) throws {}

    /// A password outside Cognito's length limits is no account's password.
    /// - Parameter password: The presented password.
    /// - Throws: `invalid_credentials`.
    public func checkPresentedPassword(_ password: String) throws {
        _ = try passwordOrFail(password, error: .invalidCredentials)
    }
}
