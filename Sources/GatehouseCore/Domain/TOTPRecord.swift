import Foundation

/// A user's authenticator-app secret.
public struct TOTPRecord: Sendable, Equatable {
    /// The user.
    public var userID: String
    /// The secret, sealed with the master key (context `totp:<user>`).
    public var sealedSecret: String
    /// When the user proved the app holds it with a first code; `nil` while enrolment is pending (no MFA yet).
    public var confirmedAt: Date?
    /// The last time step whose code was accepted: a code is accepted once.
    public var lastStep: Int64
    /// When the secret was made.
    public var createdAt: Date

    /// A record as stored.
    /// - Parameters:
    ///   - userID: The user.
    ///   - sealedSecret: The sealed secret.
    ///   - confirmedAt: When enrolment was confirmed.
    ///   - lastStep: The last accepted step.
    ///   - createdAt: When it was made.
    public init(userID: String, sealedSecret: String, confirmedAt: Date?, lastStep: Int64, createdAt: Date) {
        self.userID = userID
        self.sealedSecret = sealedSecret
        self.confirmedAt = confirmedAt
        self.lastStep = lastStep
        self.createdAt = createdAt
    }
}
