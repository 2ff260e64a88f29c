import Foundation

/// The app's own user record, keyed by the identity provider's `sub` and created just in time on the
/// first authenticated call (the seed ADR's JIT provisioning).
public struct ProfileRecord: Sendable, Equatable {
    /// The identity provider's subject (embedded pool user id or Cognito `sub`); the profile's key.
    public var sub: String
    /// The user's address as the identity provider reports it, in clear (it is the caller's own), if any.
    public var email: String?
    /// Whether the provider reports ``email`` verified.
    public var emailVerified: Bool
    /// The display name (trimmed, at most 256 scalars, no control characters), if set.
    public var fullName: String?
    /// The user's phone number, E.164, as the identity provider reports it, if any.
    public var phone: String?
    /// Whether the provider reports ``phone`` verified (the embedded pool keeps verified numbers only).
    public var phoneVerified: Bool
    /// Whether an operator made the user a superuser (`gatehouse users superuser`); never set by a
    /// request.
    public var isSuperuser: Bool
    /// When the profile was provisioned (first authenticated call).
    public var createdAt: Date
    /// When any field last changed.
    public var updatedAt: Date

    /// A profile as stored.
    /// - Parameters:
    ///   - sub: The provider's subject.
    ///   - email: The user's address, if any.
    ///   - emailVerified: Whether it is verified.
    ///   - fullName: The display name, if any.
    ///   - phone: The phone number, E.164, if any.
    ///   - phoneVerified: Whether it is verified.
    ///   - isSuperuser: Whether an operator made the user a superuser.
    ///   - createdAt: When it was provisioned.
    ///   - updatedAt: When it last changed.
    public init(
        sub: String,
        email: String?,
        emailVerified: Bool,
        fullName: String?,
        phone: String? = nil,
        phoneVerified: Bool = false,
        isSuperuser: Bool = false,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.sub = sub
        self.email = email
        self.emailVerified = emailVerified
        self.fullName = fullName
        self.phone = phone
        self.phoneVerified = phoneVerified
        self.isSuperuser = isSuperuser
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What GET /me returns: the profile and the sign-in methods linked to it.
public struct ProfileView: Sendable, Equatable {
    /// One sign-in method of the user, without the provider's subject or email (not the caller's to see).
    public struct LinkedIdentity: Sendable, Equatable {
        /// `password`, `google` or `apple`.
        public var provider: String
        /// When it was linked.
        public var linkedAt: Date
        /// Apple only: whether the address Apple gave is its private relay; `nil` when unknown.
        public var isPrivateEmail: Bool?
        /// Apple only: whether Apple forwards mail sent to that relay address; `nil` when Apple sent no
        /// `email-disabled`/`email-enabled` notification (taken as on).
        public var emailForwarding: Bool?

        /// A linked method as GET /me lists it.
        /// - Parameters:
        ///   - provider: `password`, `google` or `apple`.
        ///   - linkedAt: When it was linked.
        ///   - isPrivateEmail: Apple only: whether the address is Apple's relay, if known.
        ///   - emailForwarding: Apple only: whether the relay forwards, if known.
        public init(provider: String, linkedAt: Date, isPrivateEmail: Bool? = nil, emailForwarding: Bool? = nil) {
            self.provider = provider
            self.linkedAt = linkedAt
            self.isPrivateEmail = isPrivateEmail
            self.emailForwarding = emailForwarding
        }
    }

    /// The caller's profile.
    public var profile: ProfileRecord
    /// The sign-in methods linked to the caller, oldest first.
    public var identities: [LinkedIdentity]

    /// A profile with its methods.
    /// - Parameters:
    ///   - profile: The caller's profile.
    ///   - identities: Its linked sign-in methods.
    public init(profile: ProfileRecord, identities: [LinkedIdentity]) {
        self.profile = profile
        self.identities = identities
    }
}
