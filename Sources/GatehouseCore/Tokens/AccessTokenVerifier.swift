import Foundation
import GatehouseInfrastructure

/// Verifies Cognito-shaped access tokens: ours (embedded pool) and Cognito's own.
///
/// Rules (SECURITY.md): compact form, a `kid` of the access-token key set and exactly that key's
/// algorithm (RS256, or ES256 for our own P-256 keys), `iss` exact,
/// `token_use == "access"`, `client_id` one of ours, no `aud`, `exp`/`nbf`/`iat` within the leeway.
/// Every failure is the same `unauthorized` error; the reason travels in `cause` for the log only.
public struct AccessTokenVerifier: Sendable {
    /// The exact `iss` accepted.
    public var issuer: String
    /// The `client_id` values accepted.
    public var clientIDs: Set<String>
    /// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds (0…60).
    public var leeway: TimeInterval
    /// Require an `origin_jti` (ours always carry one).
    public var requireOriginJTI: Bool
    /// Also accept an ID token (`token_use: "id"`) whose `aud` is an allowed client id, as an API Gateway
    /// JWT authorizer configured with that audience does (`GATEHOUSE_ACCEPT_ID_TOKENS`).
    public var acceptIDTokens: Bool

    /// Creates a verifier.
    /// - Parameters:
    ///   - issuer: The exact `iss` accepted.
    ///   - clientIDs: The `client_id` values accepted.
    ///   - leeway: Clock skew in seconds; clamped to 0…60.
    ///   - requireOriginJTI: Refuse tokens without an `origin_jti` (ours always carry one).
    public init(issuer: String, clientIDs: Set<String>, leeway: TimeInterval, requireOriginJTI: Bool = true, acceptIDTokens: Bool = false) {
        self.issuer = issuer
        self.clientIDs = clientIDs
        self.leeway = min(max(leeway, 0), 60)
        self.requireOriginJTI = requireOriginJTI
        self.acceptIDTokens = acceptIDTokens
    }

    /// Parses and verifies a compact access token.
    /// - Parameters:
    ///   - token: The bearer token as sent.
    ///   - keys: The issuer's access-token keys.
    ///   - now: The time `exp`, `nbf` and `iat` are checked against.
    /// - Returns: The verified claims.
    /// - Throws: `unauthorized` on any failure; the reason is only in `cause`, for the log.
    package func verify(_ token: String, keys: JWSKeySet, idKeys: JWSKeySet? = nil, now: Date) throws(GatehouseError) -> VerifiedAccessToken {
        let jws: CompactJWS
        do { jws = try CompactJWS(parsing: token) } catch { throw .unauthorized(cause: error.description) }
        return try verify(jws, keys: keys, idKeys: idKeys, now: now)
    }

    /// Verifies an already parsed token (callers that needed its `kid` to pick the key set).
    /// - Parameters:
    ///   - jws: The parsed token.
    ///   - keys: The issuer's access-token keys.
    ///   - now: The time `exp`, `nbf` and `iat` are checked against.
    /// - Returns: The verified claims.
    /// - Throws: `unauthorized` on any failure; the reason is only in `cause`, for the log.
    package func verify(_ jws: CompactJWS, keys: JWSKeySet, idKeys: JWSKeySet? = nil, now: Date) throws(GatehouseError) -> VerifiedAccessToken {
        // An ID token is checked against the ID-token keys (where they are separate), so neither kind of
        // token is ever accepted under the other kind's key.
        let isIDToken = acceptIDTokens && jws.claims["token_use"]?.stringValue == "id"
        do { try (isIDToken ? idKeys ?? keys : keys).verify(jws) } catch { throw .unauthorized(cause: "signature: \(error)") }
        let claims = jws.claims
        guard claims["iss"]?.stringValue == issuer else { throw .unauthorized(cause: "issuer mismatch") }
        let clientID: String
        if isIDToken {
            guard let audience = claims["aud"]?.stringValue, clientIDs.contains(audience) else {
                throw .unauthorized(cause: "ID token for another audience")
            }
            clientID = audience
        } else {
            guard claims["token_use"]?.stringValue == "access" else { throw .unauthorized(cause: "token_use is not access") }
            guard claims["aud"] == nil else { throw .unauthorized(cause: "access token carries aud") }
            guard let client = claims["client_id"]?.stringValue, clientIDs.contains(client) else {
                throw .unauthorized(cause: "client_id not allowed")
            }
            clientID = client
        }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { throw .unauthorized(cause: "no sub") }
        let times = try TimeClaims(claims, now: now, leeway: leeway, context: "access token")
        let originJTI = claims["origin_jti"]?.stringValue
        if requireOriginJTI, originJTI == nil { throw .unauthorized(cause: "no origin_jti") }
        return VerifiedAccessToken(
            sub: sub,
            username: (isIDToken ? claims["cognito:username"] : claims["username"])?.stringValue ?? sub,
            clientID: clientID,
            originJTI: originJTI,
            jti: claims["jti"]?.stringValue,
            scope: claims["scope"]?.stringValue ?? "",
            issuedAt: times.issuedAt,
            expiresAt: times.expiresAt,
            isIDToken: isIDToken
        )
    }
}
