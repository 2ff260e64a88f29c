import Logging

/// The email and password flows of an identity provider. Inputs arrive normalised by
/// ``PasswordAuthentication`` (a parsed address, a code without separators, a checked display name),
/// which also applies the throttles and quotas around each call; every error is a ``GatehouseError``.
public protocol PasswordStrategy: Sendable {
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

    /// Refuses a client past its share of the password-hashing queue, before any database work
    /// (a provider that hashes nothing itself admits everyone).
    /// - Parameter client: Who asks.
    /// - Throws: `too_many_requests`.
    func admit(client: ClientInfo) throws

    /// Creates an unconfirmed account and sends a code (the same answer for a taken address).
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The password, already checked.
    ///   - name: The display name, already checked.
    ///   - claimAddressMail: Draws on the address's mail quota; `false` when it is spent.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sign-up answer.
    /// - Throws: A ``GatehouseError``.
    func signUp(
        email: EmailAddress,
        password: String,
        name: String?,
        claimAddressMail: @Sendable () async throws -> Bool,
        client: ClientInfo,
        logger: Logger
    ) async throws -> SignUpResult

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

    /// Checks an email and password (run while the attempt is reserved against the sign-in limits).
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The presented password, already checked by ``checkPresentedPassword(_:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The grant that starts the session, once the limits released the attempt.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`.
    func verifyPassword(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> PasswordSignInGrant

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

    /// Prepares a password change: the account its failures count against, the check of the
    /// current password (run under the limits) and the change itself.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The plan ``PasswordAuthentication`` runs.
    /// - Throws: `unauthorized` when the user is gone, `invalid_credentials`, `invalid_password`.
    func preparePasswordChange(
        principal: Principal,
        currentPassword: String,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> PasswordChangePlan
}
