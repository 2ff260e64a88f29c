import Foundation

/// The random password Gatehouse set for a Cognito user it signs in by a provider identity, sealed
/// with ``SecretBox`` (context `cognito-password:<sub>`). One per Cognito user, kept until the
/// account is deleted.
public struct CognitoPasswordRecord: Sendable, Equatable {
    /// The Cognito user's `sub` (its username in an email-username pool).
    public var sub: String
    /// The password, sealed under the master key with ``sealingContext(sub:)``; never stored in clear.
    public var sealedPassword: String
    /// When Gatehouse set the password in Cognito.
    public var createdAt: Date

    /// A sealed password as stored.
    /// - Parameters:
    ///   - sub: The Cognito user's `sub`.
    ///   - sealedPassword: The password sealed with ``sealingContext(sub:)``.
    ///   - createdAt: When it was set.
    public init(sub: String, sealedPassword: String, createdAt: Date) {
        self.sub = sub
        self.sealedPassword = sealedPassword
        self.createdAt = createdAt
    }

    /// The associated data the password is sealed under: a sealed value moved to another row does not open.
    /// - Parameter sub: The Cognito user's `sub`.
    /// - Returns: `cognito-password:<sub>`.
    public static func sealingContext(sub: String) -> String { "cognito-password:" + sub }
}
