import Foundation

/// A sign-in method linked to a user: `password`, or a provider (`google`, `apple`) and its `sub`.
public struct IdentityRecord: Sendable, Equatable {
    public var provider: String
    /// The provider's subject; for `password` it is the user id.
    public var providerSubject: String
    public var userID: String
    /// The email the provider asserted (may be a private relay address), if any.
    public var email: String?
    public var emailVerified: Bool
    public var linkedAt: Date

    public init(provider: String, providerSubject: String, userID: String, email: String?, emailVerified: Bool, linkedAt: Date) {
        self.provider = provider
        self.providerSubject = providerSubject
        self.userID = userID
        self.email = email
        self.emailVerified = emailVerified
        self.linkedAt = linkedAt
    }
}

extension IdentityRecord {
    /// The link of a verified provider identity to the user `userID`, as of `now`.
    public init(linking identity: VerifiedIdentity, to userID: String, at now: Date) {
        self.init(
            provider: identity.provider.rawValue, providerSubject: identity.subject, userID: userID, email: identity.email,
            emailVerified: identity.emailVerified, linkedAt: now)
    }
}
