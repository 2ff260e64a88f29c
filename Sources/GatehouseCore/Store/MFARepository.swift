import Foundation

/// Second factors: authenticator-app secrets and recovery codes.
public protocol MFARepository: Sendable {
    /// The user's authenticator-app record, if any.
    func totp(userID: String) async throws -> TOTPRecord?
    /// Stores a new (unconfirmed) secret, replacing a pending one.
    func putTOTP(_ record: TOTPRecord) async throws
    /// Accepts a code's step once: `last_step` moves to `step` only if it is lower; confirms a pending
    /// enrolment when `confirmAt` is given.
    /// - Returns: `false` when a code of this step or a later one was accepted before.
    func acceptTOTPStep(userID: String, step: Int64, confirmAt: Date?) async throws -> Bool
    /// Removes the secret and the recovery codes.
    func deleteMFA(userID: String) async throws
    /// Replaces the recovery codes with new ones (their keyed hashes).
    func replaceRecoveryCodes(userID: String, hashes: [String], at: Date) async throws
    /// Spends a recovery code once.
    /// - Returns: `false` when there is no unused code with this hash.
    func useRecoveryCode(userID: String, hash: String, at: Date) async throws -> Bool
    /// How many of the user's recovery codes are not used yet.
    func unusedRecoveryCodeCount(userID: String) async throws -> Int
}
