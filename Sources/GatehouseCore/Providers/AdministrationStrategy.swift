import Foundation
import Logging

/// What the admin API and `gatehouse users` do to the embedded pool's users. Every change writes its
/// audit row (``AuditEntry``, from the ``AuditOrigin`` read before the write) in its own transaction.
public protocol AdministrationStrategy: Sendable {
    /// A page of users.
    /// - Parameter query: The filters and the position.
    /// - Returns: The users.
    /// - Throws: A store error.
    func adminUsers(_ query: UserQuery) async throws -> [UserRecord]
    /// One user with identities, sessions, passkeys and second-factor state.
    /// - Parameter id: The sub.
    /// - Returns: The details, or `nil`.
    /// - Throws: A store error.
    func adminUser(id: String) async throws -> AdminUserDetails?
    /// Creates a user.
    /// - Parameters:
    ///   - new: The user.
    ///   - origin: The operator.
    /// - Returns: The stored user.
    /// - Throws: `invalid_password`, `conflict` when the address has an account.
    func adminCreateUser(_ new: NewUser, origin: AuditOrigin) async throws -> UserRecord
    /// Changes a user; disabling ends every session in the same transaction.
    /// - Parameters:
    ///   - id: The sub.
    ///   - changes: What to change.
    ///   - origin: The operator.
    /// - Returns: The user after the change and what to publish.
    /// - Throws: `not_found`.
    func adminUpdateUser(id: String, _ changes: UserChanges, origin: AuditOrigin) async throws -> (UserRecord, [DomainEvent])
    /// Ends every session of a user.
    /// - Parameters:
    ///   - id: The sub.
    ///   - origin: The operator.
    /// - Returns: What to publish.
    /// - Throws: `not_found`.
    func adminSignOut(id: String, origin: AuditOrigin) async throws -> [DomainEvent]
}
