import Foundation

/// The embedded pool's users, found by id (the `sub`) or by email key (the case-folded address an
/// account owns, unique across the pool).
public protocol UserRepository: Sendable {
    /// Throws ``StoreConflict`` if the id or the email key is taken.
    func insertUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    func user(emailKey: String) async throws -> UserRecord?
    /// Replaces the stored row with the same id. Throws ``StoreConflict`` if the new email key is taken.
    func updateUser(_ user: UserRecord) async throws
    func deleteUser(id: String) async throws
}
