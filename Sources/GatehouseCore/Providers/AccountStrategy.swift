import Foundation
import Logging

/// The account side of an identity provider: what the just-in-time profile starts from, where a
/// new display name is kept, what a step-up check needs, and deletion.
public protocol AccountStrategy: Sendable {
    /// What the provider knows about the user, to seed the just-in-time profile.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The seed.
    /// - Throws: `unauthorized` when the user is gone.
    func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed

    /// Keeps a new display name where the provider reads it from (inside the profile's transaction).
    /// - Parameters:
    ///   - name: The new name, `nil` to clear it.
    ///   - sub: The user.
    ///   - now: The change's time.
    ///   - tx: The profile update's transaction.
    /// - Throws: A store error.
    func recordDisplayName(_ name: String?, sub: String, at now: Date, in tx: any StoreTransaction) async throws

    /// Deletes the user where the provider keeps them outside our store, before anything here
    /// changes (Cognito: `DeleteUser`); if this fails, nothing changed and the client may retry.
    /// - Parameters:
    ///   - principal: The caller (an operator's deletion has no access token).
    ///   - logger: The request's logger.
    /// - Returns: Whether a user was deleted upstream (then records left here are worth a critical log).
    /// - Throws: A ``GatehouseError``.
    func deleteUpstreamAccount(principal: Principal, logger: Logger) async throws -> Bool

    /// Removes what only this provider keeps of the user, inside the deletion's transaction, after
    /// ``AccountDeletion`` removed what every provider shares (the pool: its audit row, codes,
    /// passkeys, second factor and user row; Cognito: the cut-off that ends the user's tokens here).
    /// - Parameters:
    ///   - sub: The user.
    ///   - origin: Who deletes, from where (read before the transaction, for the audit log).
    ///   - tx: The deletion's transaction.
    /// - Throws: A store error (the transaction rolls back).
    func removeAccountRecords(of sub: String, origin: AuditOrigin, in tx: any StoreTransaction) async throws

    /// How the caller's session signed in and every way into the account, for ``StepUp``.
    /// - Parameter principal: The caller.
    /// - Returns: The facts, or nil when the provider cannot say (then no step-up is asked here).
    /// - Throws: `unauthorized` when the session or user is gone; a store error.
    func stepUpFacts(principal: Principal) async throws -> StepUpFacts?
}
