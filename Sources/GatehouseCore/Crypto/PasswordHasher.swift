import Foundation

/// Hashes and verifies passwords. Implementations must be slow on purpose and run off the event loop.
///
/// Every call names a `lane` (the client address it is for, or `nil`), so an implementation with a
/// bounded queue can cap how much of it one client holds.
public protocol PasswordHasher: Sendable {
    /// A self-describing hash (PHC string) of `password`.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - lane: Who the work is for (a client's rate-limit subject), or `nil`.
    func hash(_ password: String, lane: String?) async throws -> String
    /// Whether `password` matches `hash`, compared in constant time.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - hash: A PHC string made by ``hash(_:lane:)``.
    ///   - lane: Who the work is for, or `nil`.
    func verify(_ password: String, against hash: String, lane: String?) async throws -> Bool
    /// Burns the same time as a real verification, for accounts that do not exist.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - lane: Who the work is for, or `nil`.
    func verifyDummy(_ password: String, lane: String?) async throws
    /// Whether `hash` was made with weaker parameters than the current ones.
    func needsRehash(_ hash: String) -> Bool
    /// Throws at once if work for `lane` would be refused now (a full queue, a client at its share),
    /// so a caller can refuse before doing anything else; the hashing call itself still decides.
    func checkAdmission(lane: String?) throws
}

extension PasswordHasher {
    /// No admission limits by default: a hasher without a queue admits all work.
    /// - Parameter lane: Ignored.
    /// - Throws: Never.
    public func checkAdmission(lane: String?) throws {}

    /// ``hash(_:lane:)`` for no particular client.
    /// - Parameter password: The password, exactly as sent.
    /// - Returns: The PHC string.
    /// - Throws: What ``hash(_:lane:)`` throws.
    public func hash(_ password: String) async throws -> String { try await hash(password, lane: nil) }
    /// ``verify(_:against:lane:)`` for no particular client.
    /// - Parameters:
    ///   - password: The password, exactly as sent.
    ///   - hash: A PHC string made by ``hash(_:lane:)``.
    /// - Returns: Whether they match.
    /// - Throws: What ``verify(_:against:lane:)`` throws.
    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await verify(password, against: hash, lane: nil)
    }
    /// ``verifyDummy(_:lane:)`` for no particular client.
    /// - Parameter password: The password, exactly as sent.
    /// - Throws: What ``verifyDummy(_:lane:)`` throws.
    public func verifyDummy(_ password: String) async throws { try await verifyDummy(password, lane: nil) }
}
