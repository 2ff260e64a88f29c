import Foundation
import Logging

extension EmbeddedUserPool {
    public func authenticate(bearer: String, logger: Logger) async throws -> Principal {
        let claims = try tokens.verifyAccessToken(bearer)
        guard let sessionID = claims.originJTI else { throw GatehouseError.unauthorized(cause: "no origin_jti") }
        guard try await liveness.isLive(sessionID: sessionID, sub: claims.sub) else {
            throw GatehouseError.unauthorized(cause: "session ended or user deleted")
        }
        return Principal(sub: claims.sub, username: claims.username, sessionID: sessionID, clientID: claims.clientID, scope: claims.scope, accessToken: bearer)
    }

    public func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed {
        guard let user = try await store.read({ try await $0.user(id: principal.sub) }) else {
            throw GatehouseError.unauthorized(cause: "user no longer exists")
        }
        return ProfileSeed(email: user.email, emailVerified: user.emailVerified, name: user.name)
    }

    /// Deletes the user, the app profile, every session, code and linked identity in one transaction;
    /// the user's access tokens stop working at once. Their Apple tokens are queued for revocation in
    /// the same transaction and revoked right after (retried later if Apple is unreachable).
    public func deleteAccount(principal: Principal, logger: Logger) async throws {
        let sub = principal.sub
        let deletion = AccountDeletion(liveness: liveness, profileCache: profileCache, appleVault: appleVault)
        let queued: [String] = try await store.write { tx in
            let queued = try await deletion.removeLocalRecords(of: sub, in: tx)
            try await tx.deleteCodes(userID: sub)
            try await tx.deleteUser(id: sub)
            return queued
        }
        await deletion.finish(sub: sub, queuedRevocations: queued, logger: logger)
    }

    public func checkReady() async throws {
        try await store.ping()
    }
}
