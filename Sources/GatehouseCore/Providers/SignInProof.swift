/// What a strategy's credential check proves: a local subject, whose session ``SessionIssuer``
/// starts, or the tokens an upstream provider issued while checking (Cognito's `InitiateAuth`
/// answers with tokens, which the strategy has already recorded).
public enum SignInProof: Sendable {
    /// The pool's user: the use case has the session issuer start the session.
    case subject(VerifiedSubject)
    /// The upstream provider's tokens, already recorded here.
    case upstreamTokens(AuthTokens)
}
