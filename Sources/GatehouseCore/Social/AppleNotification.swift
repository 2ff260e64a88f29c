import Foundation

/// One of Apple's server-to-server notifications, verified (``AppleNotificationVerifier``).
public struct AppleNotification: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable {
        /// The user stopped email forwarding through Apple's private relay.
        case emailDisabled = "email-disabled"
        /// The user turned forwarding back on.
        case emailEnabled = "email-enabled"
        /// The user stopped using Sign in with Apple with the app.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple account.
        case accountDelete = "account-delete"
    }

    /// What happened.
    public var kind: Kind
    /// The Apple user id (`sub` of their Apple ID tokens).
    public var subject: String
    /// When it happened (`event_time`).
    public var eventTime: Date
    /// The relay address the event is about, when Apple sent one.
    public var email: String?
    /// Whether that address is a private relay address.
    public var isPrivateEmail: Bool?
    /// Which of our Apple client ids it was sent for.
    public var audience: String
    /// A hash naming the event (its type, subject and time): the key it is handled once by.
    public var eventHash: String
}
