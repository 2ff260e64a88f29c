import Logging

/// What a second factor needs of a provider: the user, and the subject once the second step passed. The
/// embedded pool implements it (its sign-ins ask for the second step themselves); with Cognito, MFA is
/// Cognito's own.
public protocol SecondFactorStrategy: Sendable {
    /// The user whose sign-in a second factor completed, for ``SessionIssuer`` to start the session of.
    /// - Parameters:
    ///   - userID: The user.
    ///   - firstFactor: The first factor's session method.
    /// - Returns: The subject, its method the first factor's with `+otp` (`amr` carries both factors).
    /// - Throws: `invalid_credentials` when the user is gone.
    func subject(afterSecondFactor userID: String, firstFactor: String) async throws -> VerifiedSubject

    /// The user with this id, if any.
    /// - Parameter id: The user's `sub`.
    /// - Returns: The user.
    /// - Throws: A store error.
    func secondFactorUser(id: String) async throws -> UserRecord?
}
