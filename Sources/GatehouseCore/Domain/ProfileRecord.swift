import Foundation

/// The app's own user record, keyed by the identity provider's `sub` and created just in time on the
/// first authenticated call (the seed ADR's JIT provisioning).
public struct ProfileRecord: Sendable, Equatable {
    public var sub: String
    public var email: String?
    public var emailVerified: Bool
    public var fullName: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(sub: String, email: String?, emailVerified: Bool, fullName: String?, createdAt: Date, updatedAt: Date) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.fullName = fullName
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What GET /me returns: the profile and the sign-in methods linked to it.
public struct ProfileView: Sendable, Equatable {
    public struct LinkedIdentity: Sendable, Equatable {
        public var provider: String
        public var linkedAt: Date

        public init(provider: String, linkedAt: Date) {
            self.provider = provider
            self.linkedAt = linkedAt
        }
    }

    public var profile: ProfileRecord
    public var identities: [LinkedIdentity]

    public init(profile: ProfileRecord, identities: [LinkedIdentity]) {
        self.profile = profile
        self.identities = identities
    }
}
