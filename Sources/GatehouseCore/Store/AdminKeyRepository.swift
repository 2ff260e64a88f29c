import Foundation

/// Admin API keys.
public protocol AdminKeyRepository: Sendable {
    /// Stores a new key.
    /// - Parameter key: The record.
    /// - Throws: ``StoreConflict`` when a live key has the name.
    func insertAdminKey(_ key: AdminKeyRecord) async throws
    /// The key with this hash, revoked or not.
    /// - Parameter hash: ``AdminKey/hash(_:)`` of the presented key.
    /// - Returns: The record, or `nil`.
    /// - Throws: A store error.
    func adminKey(hash: String) async throws -> AdminKeyRecord?
    /// Every key, live and revoked, oldest first.
    /// - Returns: The records.
    /// - Throws: A store error.
    func adminKeys() async throws -> [AdminKeyRecord]
    /// Revokes the live key with this name.
    /// - Parameters:
    ///   - name: The key's name.
    ///   - at: The revocation time.
    /// - Returns: `false` when no live key has the name.
    /// - Throws: A store error.
    func revokeAdminKey(name: String, at: Date) async throws -> Bool
    /// Records a use of the key.
    /// - Parameters:
    ///   - id: The key's id.
    ///   - at: The use's time.
    /// - Throws: A store error.
    func touchAdminKey(id: String, at: Date) async throws
}
