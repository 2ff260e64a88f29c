import Logging

/// The email and password flows of an identity provider. Inputs arrive normalised by
/// ``PasswordAuthentication`` (a parsed address, a code without separators, a checked display name);
/// every error is a ``GatehouseError``.
public protocol PasswordBackend: Sendable {
    /// `embedded` or `cognito`.
    var name: String { get }

    /// Checks a password the user is choosing (sign-up, reset) against the provider's rules.
    /// - Parameters:
    ///   - password: The new password.
    ///   - email: The account's address, when known (a password may not be the address).
    /// - Throws: `invalid_password` when the provider would refuse it.
    func checkNewPassword(_ password: String, email: EmailAddress?) throws

    /// Checks a password presented at sign-in is one the provider could hold at all.
    /// - Parameter password: The presented password.
    /// - Throws: `invalid_credentials` for one no account can have.
    func checkPresentedPassword(_ password: String) throws

    /// Creates an unconfirmed account and sends a code (the same answer for a taken address).
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The password, already checked.
    ///   - name: The display name, already checked.
    ///   - client: Who asks (rate limits).
    ///   - logger: The request's logger.
    /// - Returns: The sign-up answer.
    /// - Throws: A ``GatehouseError``.
    func signUp(email: EmailAddress, password: String, name: String?, client: ClientInfo, logger: Logger) async throws -> SignUpResult

    /// Confirms the address with the emailed code.
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed, to publish.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`.
    func confirmSignUp(email: EmailAddress, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent]

    /// Sends a new confirmation code to an unconfirmed account (the same answer for any address).
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests` past the mail caps.
    func resendConfirmationCode(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery

    /// Signs in with email and password and records the session.
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The presented password, already checked by ``checkPresentedPassword(_:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`, `too_many_requests`.
    func signIn(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens

    /// Mails a reset code to the account that owns the address, if any.
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests` past the mail caps.
    func forgotPassword(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery

    /// Sets a new password with the emailed code; every session of the user ends.
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - newPassword: The new password, already checked.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed (the sessions ended), to publish.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`.
    func resetPassword(email: EmailAddress, code: String, newPassword: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent]

    /// Changes the signed-in user's password; their other sessions end.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed (the sessions ended), to publish.
    /// - Throws: `invalid_credentials`, `invalid_password`, `too_many_requests`.
    func changePassword(
        principal: Principal, currentPassword: String, newPassword: String, client: ClientInfo, logger: Logger
    ) async throws -> [DomainEvent]
}
