import Foundation

/// Hashes and verifies passwords. Implementations must be slow on purpose and run off the event loop.
public protocol PasswordHasher: Sendable {
    /// A self-describing hash (PHC string) of `password`.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `hash`, compared in constant time.
    func verify(_ password: String, against hash: String) async throws -> Bool
    /// Burns the same time as a real verification, for accounts that do not exist.
    func verifyDummy(_ password: String) async throws
    /// Whether `hash` was made with weaker parameters than the current ones.
    func needsRehash(_ hash: String) -> Bool
}
