import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// The check of Cognito's access tokens, the just-in-time profile's seed, account
/// deletion and readiness.
extension CognitoIdentityProvider {
    /// Verifies a Cognito access token against the pool's key set (RS256, exact issuer,
    /// `token_use == access`, our app client, times); its session's liveness is read under the
    /// session id and the token's issue time (a cut-off ends tokens issued before it).
    /// - Parameter bearer: The access token.
    /// - Returns: The checked claims and their session.
    /// - Throws: `unauthorized`, or `upstream_unavailable` when the key set cannot be fetched.
    public func verifyBearer(_ bearer: String) async throws -> VerifiedBearer {
        let jws: CompactJWS
        do { jws = try CompactJWS(parsing: bearer) } catch { throw GatehouseError.unauthorized(cause: error.description) }
        guard jws.algorithm == "RS256", let kid = jws.keyID else { throw GatehouseError.unauthorized(cause: "not an RS256 token with a kid") }
        let keySet: JWSKeySet
        do {
            keySet = try await keys.keys(containing: kid)
        } catch let error as GatehouseError where error.code == .upstreamUnavailable {
            throw error
        } catch {
            throw GatehouseError.unauthorized(cause: "the token's kid (\(kid.utf8.count) bytes) is not in the pool's key set")
        }
        let claims = try verifier.verify(jws, keys: keySet, now: clock.now())
        let sessionID = claims.originJTI ?? "jti:" + (claims.jti ?? "unknown")
        return VerifiedBearer(
            claims: claims,
            sessionID: sessionID,
            livenessKey: CognitoSessionLiveness.key(sessionID: sessionID, issuedAt: claims.issuedAt)
        )
    }

    /// The Cognito user's address and name (GetUser with the caller's token; from the claims of an ID
    /// token sent as the bearer).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The seed.
    /// - Throws: `unauthorized` when Cognito no longer knows the token or user, an upstream error.
    public func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed {
        if principal.viaIDToken {
            // Cognito's GetUser takes only an access token; a verified ID token carries the same facts.
            let claims = try CompactJWS(parsing: principal.accessToken).claims
            let verified = claims["email_verified"].map { $0 == .bool(true) || $0 == .string("true") } ?? false
            return ProfileSeed(email: claims["email"]?.stringValue, emailVerified: verified, name: claims["name"]?.stringValue)
        }
        do {
            let user = CognitoUser(try await call("GetUser", ["AccessToken": .string(principal.accessToken)], logger: logger))
            return ProfileSeed(email: user.email, emailVerified: user.emailVerified, name: user.name)
        } catch let error as CognitoError where error.code == "NotAuthorizedException" || error.code == "UserNotFoundException" {
            throw GatehouseError.unauthorized(cause: "Cognito no longer knows the token or the user")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
    }

    /// Cognito keeps how a session signed in to itself, and phone sign-in is not offered on Cognito, so
    /// no step-up is asked here.
    /// - Parameter principal: The caller.
    /// - Returns: nil.
    public func stepUpFacts(principal: Principal) async throws -> StepUpFacts? { nil }

    /// Refuses an action Cognito only performs with the caller's access token when the caller sent an ID token.
    static func requireAccessToken(_ principal: Principal, for action: String) throws {
        guard principal.viaIDToken else { return }
        throw GatehouseError(.unauthorized, "\(action) needs the access token, not the ID token.", cause: "ID token as bearer")
    }

    /// Deletes the Cognito user (DeleteUser with the caller's token, which needs no IAM permission)
    /// before anything changes here; if Cognito cannot be reached nothing changes and the client can retry.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: `true`: the user is gone at Cognito.
    /// - Throws: An upstream error.
    public func deleteUpstreamAccount(principal: Principal, logger: Logger) async throws -> Bool {
        do {
            _ = try await call("DeleteUser", ["AccessToken": .string(principal.accessToken)], logger: logger)
        } catch let error as CognitoError where error.code == "UserNotFoundException" {
            logger.info("the Cognito user was already gone")
        } catch let error as CognitoError where error.code == "NotAuthorizedException" {
            // The token was revoked at Cognito (a global sign-out there) but the session is live here:
            // the administrator path deletes the same user.
            do {
                _ = try await call(
                    "AdminDeleteUser",
                    ["UserPoolId": .string(settings.userPoolID), "Username": .string(principal.username)],
                    logger: logger
                )
            } catch let error as CognitoError where error.code == "UserNotFoundException" {
                logger.info("the Cognito user was already gone")
            } catch let error as CognitoError {
                throw error.gatehouseError()
            }
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return true
    }

    /// The cut-off that ends the user's tokens here (Cognito's tokens outlive the user by up to an
    /// hour) and the user's Cognito password verifier, in the deletion's transaction.
    /// - Parameters:
    ///   - sub: The user.
    ///   - origin: Who deletes, from where.
    ///   - tx: The deletion's transaction.
    /// - Throws: A store error.
    public func removeAccountRecords(of sub: String, origin: AuditOrigin, in tx: any StoreTransaction) async throws {
        let now = clock.now()
        try await tx.recordSubjectRevocation(sub: sub, revokedBefore: now, deletedAt: now)
        try await tx.deleteCognitoPassword(sub: sub)
    }

    /// Names stay where they are on Cognito: the profile row holds the app's copy (which is what
    /// GET /me shows); Cognito's `name` attribute is left as the user signed up with.
    /// - Parameters:
    ///   - name: The new name (unused).
    ///   - sub: The user (unused).
    ///   - now: The change's time (unused).
    ///   - tx: The profile update's transaction (unused).
    public func recordDisplayName(_ name: String?, sub: String, at now: Date, in tx: any StoreTransaction) async throws {}

    /// The store answers and the pool's keys can be had (cached, or fetched now).
    /// - Throws: The store's error, or `upstream_unavailable`.
    public func checkReady() async throws {
        try await store.ping()
        if keys.expiresAt <= clock.now() {
            do { _ = try await keys.refresh() } catch { throw GatehouseError.upstreamUnavailable(cause: "the Cognito key set cannot be fetched") }
        }
    }
}
