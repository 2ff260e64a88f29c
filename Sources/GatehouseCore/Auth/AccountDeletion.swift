import Logging

/// What deleting an account removes and forgets on our side, whichever identity provider holds the
/// user: Apple tokens (queued for revocation at Apple first), sessions, linked identities and the
/// profile, then this process's caches. Each provider adds what only it has (the pool its user row
/// and codes, Cognito the cut-off that ends its tokens here).
public struct AccountDeletion: Sendable {
    let liveness: CachedSessionLiveness
    let profileCache: ProfileCache?
    let appleVault: AppleTokenVault?

    public init(liveness: CachedSessionLiveness, profileCache: ProfileCache?, appleVault: AppleTokenVault?) {
        self.liveness = liveness
        self.profileCache = profileCache
        self.appleVault = appleVault
    }

    /// Removes `sub`'s records inside the caller's transaction; returns the queued Apple revocations.
    public func removeLocalRecords(of sub: String, in tx: any StoreTransaction) async throws -> [String] {
        let queued = try await appleVault?.enqueueRevocations(userID: sub, in: tx) ?? []
        try await tx.deleteAppleTokens(userID: sub)
        try await tx.deleteSessions(userID: sub)
        try await tx.deleteIdentities(userID: sub)
        try await tx.deleteProfile(sub: sub)
        return queued
    }

    /// After the commit: tokens stop working here at once, and Apple is asked to revoke now (the
    /// queue retries if it cannot be reached).
    public func finish(sub: String, queuedRevocations: [String], logger: Logger) async {
        liveness.invalidate(sub: sub)
        profileCache?.invalidate(sub)
        logger.info("account deleted", metadata: ["user.sub": .string(sub)])
        if let appleVault, !queuedRevocations.isEmpty { await appleVault.attempt(ids: queuedRevocations, logger: logger) }
    }
}
