/// How a sign-in at Google or Apple ended for the hosted UI.
public enum FederationOutcome: Sendable {
    /// Signed in: finish the app's request with these tokens.
    case signedIn(AuthorizationRequest, AuthTokens)
    /// The account has a second factor: ask for its code (the challenge), then finish the app's request.
    case secondFactor(AuthorizationRequest, mfaToken: String)
    /// Refused: a page or a redirect back to the app.
    case refused(AuthorizationRefusal)
}
