/// How a session signed in, ranked for step-up: a sensitive action needs a session at least as strong
/// as the strongest way into the account. A text message proves only that someone holds the number
/// (SIM swaps, number recycling), so it ranks below a password or a provider's sign-in.
public enum SignInMethod: String, Sendable, CaseIterable, Comparable {
    /// A code texted to the phone number.
    case sms
    /// Email and password.
    case password
    /// Google or Apple.
    case social

    /// The method a session records (`phone`, `password`, `google`, `apple`); a method this version
    /// does not know ranks as a password, the default before step-up existed.
    /// - Parameter session: The session's `method`.
    public init(session: String) {
        switch session {
        case "phone": self = .sms
        case "google", "apple": self = .social
        default: self = .password
        }
    }

    /// The method an identity gives (`password`, `phone`, `google`, `apple`).
    /// - Parameter provider: The identity's provider.
    public init(identity provider: String) {
        self.init(session: provider)
    }

    /// Rank: SMS below password and a provider's sign-in, which rank alike.
    var strength: Int {
        switch self {
        case .sms: 1
        case .password, .social: 2
        }
    }

    public static func < (lhs: SignInMethod, rhs: SignInMethod) -> Bool { lhs.strength < rhs.strength }
}
