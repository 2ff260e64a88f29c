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

    /// Deletes the user and everything of theirs here: sessions, codes, identities, the profile.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The Apple token revocations queued in the deletion's transaction.
    /// - Throws: A ``GatehouseError`` (nothing changed; the client may retry).
    func deleteAccount(principal: Principal, logger: Logger) async throws -> [String]

    /// How the caller's session signed in and every way into the account, for ``StepUp``.
    /// - Parameter principal: The caller.
    /// - Returns: The facts, or nil when the provider cannot say (then no step-up is asked here).
    /// - Throws: `unauthorized` when the session or user is gone; a store error.
    func stepUpFacts(principal: Principal) async throws -> StepUpFacts?
}
