/// Who a local strategy proved the caller to be, and how: what ``SessionIssuer`` starts a session
/// for. A strategy that returns one has recorded nothing of the session; the issuer applies the
/// disabled-account and second-factor gates, records the session and signs its tokens.
public struct VerifiedSubject: Sendable {
    /// The pool user, as read when the proof was checked (its claims go into the tokens).
    public var user: UserRecord
    /// The session's sign-in method (`password`, `passkey`, `phone`, `google`, `apple`, a second
    /// factor's `…+otp`).
    public var method: String
    /// Whether the sign-in created the account (social and phone sign-in); `nil` elsewhere.
    public var isNewUser: Bool?

    /// Creates a verified subject. Only this package's strategies make one: a method ending in `+otp`
    /// passes the second-factor gate, so no code outside may claim it.
    /// - Parameters:
    ///   - user: The pool user.
    ///   - method: The sign-in method.
    ///   - isNewUser: Whether the sign-in created the account, where that is said.
    package init(user: UserRecord, method: String, isNewUser: Bool? = nil) {
        self.user = user
        self.method = method
        self.isNewUser = isNewUser
    }
}
