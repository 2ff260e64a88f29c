import Foundation

/// A sign-in method linked to a user: `password`, or a provider (`google`, `apple`) and its `sub`.
public struct IdentityRecord: Sendable, Equatable {
    /// The sign-in method: `password`, `google` or `apple`.
    public var provider: String
    /// The provider's subject; for `password` it is the user id.
    public var providerSubject: String
    /// The Gatehouse user (`sub`) it signs in as.
    public var userID: String
    /// The email the provider asserted (may be a private relay address), if any.
    public var email: String?
    /// Whether the provider asserted ``email`` verified; only a verified email can claim an account by address.
    public var emailVerified: Bool
    /// When the method was linked to the user.
    public var linkedAt: Date
    /// Apple only: whether ``email`` is Apple's private relay address (`is_private_email`, written on
    /// each Apple sign-in that carries an address); `nil` when unknown (other providers, older rows).
    public var isPrivateEmail: Bool?
    /// Apple only: whether Apple forwards mail sent to the relay address (`false` after Apple's
    /// `email-disabled` notification, `true` after `email-enabled`); `nil` when no notification came
    /// (taken as on).
    public var emailForwarding: Bool?

    /// A link as stored; (provider, providerSubject) is unique across the pool.
    /// - Parameters:
    ///   - provider: `password`, `google` or `apple`.
    ///   - providerSubject: The provider's `sub` (the user id for `password`).
    ///   - userID: The Gatehouse user.
    ///   - email: The email the provider asserted, if any.
    ///   - emailVerified: Whether the provider asserted it verified.
    ///   - linkedAt: When it was linked.
    ///   - isPrivateEmail: Apple only: whether the address is Apple's relay, if known.
    ///   - emailForwarding: Apple only: whether the relay forwards, if known.
    public init(
        provider: String,
        providerSubject: String,
        userID: String,
        email: String?,
        emailVerified: Bool,
        linkedAt: Date,
        isPrivateEmail: Bool? = nil,
        emailForwarding: Bool? = nil
    ) {
        self.provider = provider
        self.providerSubject = providerSubject
        self.userID = userID
        self.email = email
        self.emailVerified = emailVerified
        self.linkedAt = linkedAt
        self.isPrivateEmail = isPrivateEmail
        self.emailForwarding = emailForwarding
    }
}

extension IdentityRecord {
    /// The link of a verified provider identity (with Apple's relay flag when the token carries an
    /// address) to the user `userID`, as of `now`.
    /// - Parameters:
    ///   - identity: A provider identity whose ID token passed verification.
    ///   - userID: The Gatehouse user to link it to.
    ///   - now: The link time.
    public init(linking identity: VerifiedIdentity, to userID: String, at now: Date) {
        self.init(
            provider: identity.provider.rawValue,
            providerSubject: identity.subject,
            userID: userID,
            email: identity.email,
            emailVerified: identity.emailVerified,
            linkedAt: now,
            isPrivateEmail: identity.relayFlag
        )
    }

    /// This link updated with what a later sign-in's token says, or `nil` when it says nothing new. Apple
    /// sends the address only sometimes: a token without one changes nothing, so what was learnt is kept.
    /// A token with an address also says whether it is Apple's relay (``VerifiedIdentity/relayFlag``).
    /// - Parameter identity: The same provider identity, verified again.
    /// - Returns: The changed link, to write, or `nil`.
    public func refreshed(by identity: VerifiedIdentity) -> IdentityRecord? {
        guard let email = identity.email else { return nil }
        let relay = identity.relayFlag
        guard email != self.email || identity.emailVerified != emailVerified || (relay != nil && relay != isPrivateEmail) else { return nil }
        var changed = self
        changed.email = email
        changed.emailVerified = identity.emailVerified
        changed.isPrivateEmail = relay ?? isPrivateEmail
        return changed
    }
}
