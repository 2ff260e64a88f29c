import Foundation

/// The sign-in methods linked to users: `password`, or a provider and its subject, unique per (provider, subject).
public protocol IdentityRepository: Sendable {
    /// Throws ``StoreConflict`` if (provider, subject) is already linked.
    func insertIdentity(_ identity: IdentityRecord) async throws
    func identity(provider: String, subject: String) async throws -> IdentityRecord?
    /// The identity and the user it belongs to, in one lookup (social sign-in's common case).
    func identityWithUser(provider: String, subject: String) async throws -> (IdentityRecord, UserRecord)?
    func identities(userID: String) async throws -> [IdentityRecord]
    func updateIdentity(_ identity: IdentityRecord) async throws
    func deleteIdentities(userID: String) async throws
}
