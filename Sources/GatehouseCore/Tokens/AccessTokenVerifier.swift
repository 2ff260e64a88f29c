import Foundation
import GatehouseInfrastructure

/// Verifies Cognito-shaped access tokens: ours (embedded pool) and Cognito's own.
///
/// Rules (SECURITY.md): compact form, RS256 with a `kid` of the access-token key set, `iss` exact,
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

    /// Creates a verifier.
    /// - Parameters:
    ///   - issuer: The exact `iss` accepted.
    ///   - clientIDs: The `client_id` values accepted.
    ///   - leeway: Clock skew in seconds; clamped to 0…60.
    ///   - requireOriginJTI: Refuse tokens without an `origin_jti` (ours always carry one).
    public init(issuer: String, clientIDs: Set<String>, leeway: TimeInterval, requireOriginJTI: Bool = true) {
        self.issuer = issuer
        self.clientIDs = clientIDs
        self.leeway = min(max(leeway, 0), 60)
        self.requireOriginJTI = requireOriginJTI
    }

    /// Parses and verifies a compact access token.
    /// - Parameters:
    ///   - token: The bearer token as sent.
    ///   - keys: The issuer's access-token keys.
    ///   - now: The time `exp`, `nbf` and `iat` are checked against.
    /// - Returns: The verified claims.
    /// - Throws: `unauthorized` on any failure; the reason is only in `cause`, for the log.
    package func verify(_ token: String, keys: RS256KeySet, now: Date) throws(GatehouseError) -> VerifiedAccessToken {
        let jws: CompactJWS
        do { jws = try CompactJWS(parsing: token) } catch { throw .unauthorized(cause: error.description) }
        return try verify(jws, keys: keys, now: now)
    }

    /// Verifies an already parsed token (callers that needed its `kid` to pick the key set).
    /// - Parameters:
    ///   - jws: The parsed token.
    ///   - keys: The issuer's access-token keys.
    ///   - now: The time `exp`, `nbf` and `iat` are checked against.
    /// - Returns: The verified claims.
    /// - Throws: `unauthorized` on any failure; the reason is only in `cause`, for the log.
    package func verify(_ jws: CompactJWS, keys: RS256KeySet, now: Date) throws(GatehouseError) -> VerifiedAccessToken {
        do { try keys.verify(jws) } catch { throw .unauthorized(cause: "signature: \(error)") }
        let claims = jws.claims
        guard claims["iss"]?.stringValue == issuer else { throw .unauthorized(cause: "issuer mismatch") }
        guard claims["token_use"]?.stringValue == "access" else { throw .unauthorized(cause: "token_use is not access") }
        guard claims["aud"] == nil else { throw .unauthorized(cause: "access token carries aud") }
        guard let clientID = claims["client_id"]?.stringValue, clientIDs.contains(clientID) else {
            throw .unauthorized(cause: "client_id not allowed")
        }
        guard let sub = claims["sub"]?.stringValue, !sub.isEmpty else { throw .unauthorized(cause: "no sub") }
        let times = try TimeClaims(claims, now: now, leeway: leeway, context: "access token")
        let originJTI = claims["origin_jti"]?.stringValue
        if requireOriginJTI, originJTI == nil { throw .unauthorized(cause: "no origin_jti") }
        return VerifiedAccessToken(
            sub: sub,
            username: claims["username"]?.stringValue ?? sub,
            clientID: clientID,
            originJTI: originJTI,
            jti: claims["jti"]?.stringValue,
            scope: claims["scope"]?.stringValue ?? "",
            issuedAt: times.issuedAt,
            expiresAt: times.expiresAt
        )
    }
}
