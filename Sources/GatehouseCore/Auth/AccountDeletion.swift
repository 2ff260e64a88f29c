/// What deleting an account removes on our side, whichever identity provider holds the user: Apple
/// tokens (queued for revocation at Apple first), sessions, linked identities and the profile. Only
/// ``Accounts`` uses it, in the transaction where the provider's strategy removes what only it has
/// (``AccountStrategy/removeAccountRecords(of:origin:in:)``); ``Accounts`` also does what follows the commit.
public struct AccountDeletion: Sendable {
    let appleVault: AppleTokenVault?

    /// Creates the helper.
    /// - Parameter appleVault: Set when Apple credentials are configured.
    public init(appleVault: AppleTokenVault?) {
        self.appleVault = appleVault
    }

    /// Removes `sub`'s records inside the caller's transaction.
    /// - Parameters:
    ///   - sub: The user.
    ///   - tx: The deletion's transaction.
    /// - Returns: The queued Apple revocations.
    /// - Throws: A store error.
    public func removeLocalRecords(of sub: String, in tx: any StoreTransaction) async throws -> [String] {
        let queued = try await appleVault?.enqueueRevocations(userID: sub, in: tx) ?? []
        try await tx.deleteAppleTokens(userID: sub)
        try await tx.deleteSessions(userID: sub)
        try await tx.deleteIdentities(userID: sub)
        try await tx.deleteProfile(sub: sub)
        return queued
    }
}
