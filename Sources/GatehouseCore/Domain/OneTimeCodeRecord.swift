import Foundation

/// A verification or reset code, stored as a keyed hash. One live code per user and purpose.
public struct OneTimeCodeRecord: Sendable, Equatable {
    /// What a code proves; a code issued for one purpose never redeems for the other.
    public enum Purpose: String, Sendable, CaseIterable {
        /// Confirms the address of a password sign-up.
        case confirmSignUp = "confirm_signup"
        /// Authorises choosing a new password without the old one.
        case resetPassword = "reset_password"
        /// Signs in with a phone number (the code's owner is `phone:<keyed hash of the number>`).
        case phoneSignIn = "phone_sign_in"
        /// Adds a phone number to a signed-in account (the code's hash binds the number).
        case linkPhone = "link_phone"
        /// Moves a signed-in account to a new email address (the code's hash binds the address, and the
        /// row holds it in ``OneTimeCodeRecord/address``).
        case changeEmail = "change_email"
    }

    /// The user the code was mailed or texted to, `decoy:<keyed hash of the address>` for an address
    /// with no account (the same store work either way, so timing does not reveal which addresses
    /// exist), or `phone:<keyed hash of the number>` for a phone sign-in code.
    public var userID: String
    /// What the code is for.
    public var purpose: Purpose
    /// HMAC of purpose, user id and code under the master key's hashing key (``SecretBox/keyedHash(_:)``):
    /// a database dump does not reveal live codes, and a short code cannot be brute-forced offline.
    public var codeHash: String
    /// When the code was issued.
    public var createdAt: Date
    /// When the code stops redeeming; the right code presented later gets `code_expired`.
    public var expiresAt: Date
    /// Wrong guesses so far; at `maxAttempts` the code is spent.
    public var attempts: Int
    /// For a `change_email` code: the address it was mailed to, which becomes the account's address
    /// when the code is redeemed; `nil` for every other purpose.
    public var address: String?

    /// A code as stored.
    /// - Parameters:
    ///   - userID: The user the code belongs to.
    ///   - purpose: What the code is for.
    ///   - codeHash: The keyed hash of the code; the code itself is never stored.
    ///   - createdAt: When it was issued.
    ///   - expiresAt: When it stops redeeming.
    ///   - attempts: Tries spent so far; 0 for a new code.
    ///   - address: For a `change_email` code, the new address.
    public init(userID: String, purpose: Purpose, codeHash: String, createdAt: Date, expiresAt: Date, attempts: Int = 0, address: String? = nil) {
        self.userID = userID
        self.purpose = purpose
        self.codeHash = codeHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.address = address
    }
}
