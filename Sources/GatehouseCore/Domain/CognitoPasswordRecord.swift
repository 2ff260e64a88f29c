import Foundation

/// The random password Gatehouse set for a Cognito user it signs in by a provider identity, sealed
/// with ``SecretBox`` (context `cognito-password:<sub>`). One per Cognito user, kept until the
/// account is deleted.
public struct CognitoPasswordRecord: Sendable, Equatable {
    /// The Cognito user's `sub` (its username in an email-username pool).
    public var sub: String
    public var sealedPassword: String
    public var createdAt: Date

    public init(sub: String, sealedPassword: String, createdAt: Date) {
        self.sub = sub
        self.sealedPassword = sealedPassword
        self.createdAt = createdAt
    }

    /// The associated data the password is sealed under: a sealed value moved to another row does not open.
    public static func sealingContext(sub: String) -> String { "cognito-password:" + sub }
}
