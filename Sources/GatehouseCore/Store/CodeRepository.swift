import Foundation

/// One-time confirmation and reset codes, stored as keyed hashes, one live code per user and purpose,
/// with an atomic per-code try counter so guesses cannot be parallelised.
public protocol CodeRepository: Sendable {
    /// Stores the user's code for `purpose`, replacing any earlier one.
    func replaceCode(_ code: OneTimeCodeRecord) async throws
    func code(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws -> OneTimeCodeRecord?
    /// Spends one of the code's tries before it is checked: counts the attempt and returns the code
    /// (with the new count), unless it has used `maxAttempts` already or does not exist — then `nil`,
    /// and nothing changes. One statement, so concurrent guesses never share a try.
    func spendCodeAttempt(userID: String, purpose: OneTimeCodeRecord.Purpose, maxAttempts: Int) async throws -> OneTimeCodeRecord?
    func deleteCode(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws
    func deleteCodes(userID: String) async throws
}
