/// A first factor of Cognito's choice-based sign-in (`USER_AUTH`), named as Cognito's
/// `ChallengeNameType` names it: what `AvailableChallenges` lists and what `ANSWER` picks.
public enum SignInChoice: String, Sendable, CaseIterable {
    /// The password itself (`PASSWORD` in the same responses).
    case password = "PASSWORD"
    /// Cognito's SRP (`SRP_A` in the same responses), answered by the `PASSWORD_VERIFIER` challenge.
    case passwordSRP = "PASSWORD_SRP"
    /// A passkey, answered by the `WEB_AUTHN` challenge.
    case webAuthn = "WEB_AUTHN"

    /// The first factors Cognito defines, served here or not: a preferred one of these that the pool
    /// does not offer falls back to the choice; any other name is a malformed request.
    public static let cognitoFirstFactors: Set<String> = ["PASSWORD", "PASSWORD_SRP", "WEB_AUTHN", "EMAIL_OTP", "SMS_OTP"]
}
