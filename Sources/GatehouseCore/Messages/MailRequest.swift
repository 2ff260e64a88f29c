import Foundation

/// What a message must say, as a request leaves it in the mail queue: the kind, the recipient and the
/// few values its template needs. It is rendered only when delivered (``MailRenderer``), so a request
/// does the same small amount of work whatever it mails. Stored encrypted: it may carry a code.
package struct MailRequest: Sendable, Codable, Equatable {
    /// The messages Gatehouse sends.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// The code that confirms a sign-up.
        case confirmSignUp = "confirm_signup"
        /// The code that resets a password.
        case resetPassword = "reset_password"
        /// Someone tried to sign up with an address that has an account.
        case alreadyRegistered = "already_registered"
        /// The password was changed or reset.
        case passwordChanged = "password_changed"
        /// The code that moves a signed-in account to this (new) address.
        case confirmEmailChange = "confirm_email_change"
        /// To the old address: the account's email address was changed (the new one, masked, in ``MailRequest/address``).
        case emailChanged = "email_changed"
        /// To the owner of an address: someone signed in to another account asked to move it to this address.
        case emailInUse = "email_in_use"
        /// `gatehouse mail test`: proves the transport and the templates work.
        case test
    }

    /// Which message.
    package var kind: Kind
    /// The recipient's address.
    package var to: String
    /// The account's display name, for the greeting.
    package var name: String?
    /// The one-time code (sign-up confirmation, password reset).
    package var code: String?
    /// How long the code lives, in seconds.
    package var lifetime: Int?
    /// For `already_registered`: whether the existing account is confirmed.
    package var confirmed: Bool?
    /// For `password_changed`: whether it was a reset by code (rather than a change while signed in).
    package var reset: Bool?
    /// For `email_changed`: the account's new address, masked (`b***@e***.com`).
    package var address: String?

    /// A message request.
    /// - Parameters:
    ///   - kind: Which message.
    ///   - to: The recipient.
    ///   - name: The display name, if any.
    ///   - code: The code, if the kind carries one.
    ///   - lifetime: The code's lifetime in seconds.
    ///   - confirmed: For `already_registered`.
    ///   - reset: For `password_changed`.
    ///   - address: For `email_changed`: the new address, masked.
    package init(
        kind: Kind,
        to: String,
        name: String? = nil,
        code: String? = nil,
        lifetime: Int? = nil,
        confirmed: Bool? = nil,
        reset: Bool? = nil,
        address: String? = nil
    ) {
        self.kind = kind
        self.to = to
        self.name = name
        self.code = code
        self.lifetime = lifetime
        self.confirmed = confirmed
        self.reset = reset
        self.address = address
    }
}
