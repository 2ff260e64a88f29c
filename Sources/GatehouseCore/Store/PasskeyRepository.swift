import Foundation

/// Users' passkeys.
public protocol PasskeyRepository: Sendable {
    /// Stores a new passkey; a credential id registered before is a ``StoreConflict``.
    /// - Parameter passkey: The passkey.
    func insertPasskey(_ passkey: PasskeyRecord) async throws
    /// The passkey with credential id `id`, whoever owns it.
    /// - Parameter id: The credential id, base64url.
    /// - Returns: The passkey, or `nil`.
    func passkey(id: String) async throws -> PasskeyRecord?
    /// A user's passkeys, oldest first.
    /// - Parameter userID: The user.
    /// - Returns: The passkeys.
    func passkeys(userID: String) async throws -> [PasskeyRecord]
    /// Records a sign-in: the new counter, the backup state, the time; only while the stored counter is
    /// still `previousCount` (a concurrent use of the same credential cannot both pass).
    /// - Returns: `false` when the counter changed meanwhile.
    func recordPasskeyUse(id: String, previousCount: Int64, signCount: Int64, backedUp: Bool, at: Date) async throws -> Bool
    /// Flags a passkey whose counter went backwards; it is refused from then on.
    func flagPasskey(id: String, at: Date) async throws
    /// Removes one of a user's passkeys.
    /// - Returns: `false` when the user has no passkey with that id.
    func deletePasskey(id: String, userID: String) async throws -> Bool
    /// Removes all of a user's passkeys (account deletion).
    func deletePasskeys(userID: String) async throws
}
