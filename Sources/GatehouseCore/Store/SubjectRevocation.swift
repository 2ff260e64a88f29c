import Foundation

/// A subject's revocation state: tokens issued before `revokedBefore` no longer count, and a deleted
/// subject's tokens never do.
public struct SubjectRevocation: Sendable, Equatable {
    /// The provider's subject (the Cognito user's `sub`).
    public var sub: String
    /// The cut-off: tokens whose `iat` is before it are refused. Only ever moves forward.
    public var revokedBefore: Date
    /// When the subject was deleted; once set, none of its tokens count, whatever their age.
    public var deletedAt: Date?

    /// A revocation state as stored.
    /// - Parameters:
    ///   - sub: The provider's subject.
    ///   - revokedBefore: Tokens issued before this no longer count.
    ///   - deletedAt: When the subject was deleted, or `nil` while it exists.
    public init(sub: String, revokedBefore: Date, deletedAt: Date?) {
        self.sub = sub
        self.revokedBefore = revokedBefore
        self.deletedAt = deletedAt
    }
}
