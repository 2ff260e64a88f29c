import Foundation

/// Sealed material: signing keys. Values arrive and leave sealed by ``SecretBox``.
public protocol SecretStore: Sendable {
    func signingKeys() async throws -> [StoredSigningKey]
    /// Adds a key and, in the same transaction, retires the previous active key of the same use.
    func addSigningKey(_ key: StoredSigningKey, retirePreviousAt: Date, expirePreviousAt: Date) async throws
    /// Adds the first key of a use unless another instance already did; returns the active key.
    func addInitialSigningKey(_ key: StoredSigningKey) async throws -> StoredSigningKey
    /// Makes `key` the active key of its use unless the active key already has its algorithm, in one
    /// transaction: the previous active key is retired at `retirePreviousAt` and keeps verifying until
    /// `expirePreviousAt`. Instances starting at once with the same setting switch once: the loser's
    /// key is not stored.
    /// - Returns: The active key of that use afterwards (`key`, or the one another instance stored).
    func switchSigningKey(_ key: StoredSigningKey, retirePreviousAt: Date, expirePreviousAt: Date) async throws -> StoredSigningKey
    func deleteExpiredSigningKeys(now: Date) async throws
    /// Stores the sealed secret `name` unless it exists, and returns the stored one: the first
    /// instance to start creates it, every other instance gets the same.
    /// - Parameters:
    ///   - name: The secret's name (e.g. `refresh_successor_key`).
    ///   - sealed: A fresh value sealed by ``SecretBox``, stored only if none is.
    /// - Returns: The stored sealed value.
    func insertSecretIfAbsent(_ name: String, sealed: String) async throws -> String
}
