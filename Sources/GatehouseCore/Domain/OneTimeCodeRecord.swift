import Foundation

/// A verification or reset code, stored as a keyed hash. One live code per user and purpose.
public struct OneTimeCodeRecord: Sendable, Equatable {
    public enum Purpose: String, Sendable, CaseIterable {
        case confirmSignUp = "confirm_signup"
        case resetPassword = "reset_password"
    }

    public var userID: String
    public var purpose: Purpose
    public var codeHash: String
    public var createdAt: Date
    public var expiresAt: Date
    /// Wrong guesses so far; at `maxAttempts` the code is spent.
    public var attempts: Int

    public init(userID: String, purpose: Purpose, codeHash: String, createdAt: Date, expiresAt: Date, attempts: Int = 0) {
        self.userID = userID
        self.purpose = purpose
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
    }
}
