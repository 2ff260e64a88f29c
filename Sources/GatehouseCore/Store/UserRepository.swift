import Foundation

/// The embedded pool's users, found by id (the `sub`), by email key (the case-folded address an
/// account owns, unique across the pool) or by verified phone number (E.164, unique across the pool).
public protocol UserRepository: Sendable {
    /// Throws ``StoreConflict`` if the id, the email key or the phone number is taken.
    func insertUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    func user(emailKey: String) async throws -> UserRecord?
    func user(phone: String) async throws -> UserRecord?
    /// Replaces the stored row with the same id. Throws ``StoreConflict`` if the new email key or phone number is taken.
    func updateUser(_ user: UserRecord) async throws
    func deleteUser(id: String) async throws
    /// A page of users for the admin API (``UserQuery``), by creation time and sub.
    /// - Parameter query: The filters and the position.
    /// - Returns: At most `query.limit` users.
    /// - Throws: A store error.
    func users(matching query: UserQuery) async throws -> [UserRecord]
}
