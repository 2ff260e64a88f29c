import Foundation

/// The claims of an access token that passed every check.
public struct VerifiedAccessToken: Sendable, Equatable {
    public var sub: String
    public var username: String
    public var clientID: String
    public var originJTI: String?
    public var jti: String?
    public var scope: String
    public var issuedAt: Date?
    public var expiresAt: Date
}
