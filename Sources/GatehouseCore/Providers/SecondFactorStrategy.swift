import Logging

/// What a second factor needs of a provider: the user, and a session once the second step passed. The
/// embedded pool implements it (its sign-ins ask for the second step themselves); with Cognito, MFA is
/// Cognito's own.
public protocol SecondFactorStrategy: Sendable {
    /// Starts the session a second factor completed.
    /// - Parameters:
    ///   - userID: The user.
    ///   - firstFactor: The first factor's session method.
    ///   - client: Who signs in (its device and coarse address go into the session list).
    ///   - logger: The request's logger.
    /// - Returns: The tokens (`amr` carries both factors).
    /// - Throws: `invalid_credentials` when the user is gone.
    func startSession(afterSecondFactor userID: String, firstFactor: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens

    /// The user with this id, if any.
    /// - Parameter id: The user's `sub`.
    /// - Returns: The user.
    /// - Throws: A store error.
    func secondFactorUser(id: String) async throws -> UserRecord?
}
