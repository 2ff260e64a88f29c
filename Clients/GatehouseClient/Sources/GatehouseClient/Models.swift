import Foundation

/// Where a code was sent, masked (`a***@e***.com`).
public struct CodeDelivery: Codable, Sendable, Equatable {
    public var medium: String
    public var destination: String
}

/// The answer to a sign-up (the same shape whether or not the address was already registered).
public struct SignUpResult: Codable, Sendable, Equatable {
    public var userSub: String
    public var userConfirmed: Bool
    public var codeDelivery: CodeDelivery
}

/// The app's profile of the signed-in user (`GET /me`).
public struct Profile: Codable, Sendable, Equatable {
    public struct LinkedIdentity: Codable, Sendable, Equatable {
        /// `password`, `google` or `apple`.
        public var provider: String
        public var linkedAt: Date
    }

    public var sub: String
    public var email: String?
    public var emailVerified: Bool
    public var fullName: String?
    public var identities: [LinkedIdentity]
    public var createdAt: Date
    public var updatedAt: Date
}

/// What happened to the session, for UI that follows it.
public enum AuthEvent: Sendable, Equatable {
    case signedIn
    case signedOut
    case tokenRefreshed
    /// The server refused the refresh token (revoked, expired or reused): sign in again.
    case sessionExpired
    case userDeleted
}
