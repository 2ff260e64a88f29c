import Foundation

/// An SMS as the durable queue keeps it (sealed): who gets it and the code it carries. The text is
/// rendered when it is sent (``SMSChannel``).
package struct SMSRequest: Sendable, Codable, Equatable {
    /// What the message is for.
    package enum Kind: String, Sendable, Codable, CaseIterable {
        /// A code that signs in with the number (``PhoneSignIn``).
        case signIn = "phone_sign_in"
        /// A code that adds the number to a signed-in account.
        case linkPhone = "link_phone"
    }

    /// What it is for.
    package var kind: Kind
    /// The number, E.164.
    package var to: String
    /// The six-digit code.
    package var code: String
    /// The code's lifetime in seconds.
    package var lifetime: Int

    /// A request.
    /// - Parameters:
    ///   - kind: What it is for.
    ///   - to: The number, E.164.
    ///   - code: The code.
    ///   - lifetime: The code's lifetime in seconds.
    package init(kind: Kind, to: String, code: String, lifetime: Int) {
        self.kind = kind
        self.to = to
        self.code = code
        self.lifetime = lifetime
    }
}
