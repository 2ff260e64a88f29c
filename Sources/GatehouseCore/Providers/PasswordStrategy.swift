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
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: A new account, or a taken address whose owner may get a notice.
    /// - Throws: A ``GatehouseError``.
    func signUp(email: EmailAddress, password: String, name: String?, client: ClientInfo, logger: Logger) async throws -> SignUpOutcome

    /// Queues the notice that someone tried to sign up with the owner's address (called for
    /// ``SignUpOutcome/taken(_:owner:)`` while the address's mail quota lasts).
    /// - Parameters:
    ///   - owner: The account holding the address.
    ///   - email: The address as signed up with.
    /// - Throws: A store error.
    func sendTakenAddressNotice(to owner: UserRecord, email: EmailAddress) async throws

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
    /// - Returns: The verified user (``SessionIssuer`` starts the session), or the upstream's tokens.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`.
    func verifyPassword(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> SignInProof

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

    /// The subject of the account's sign-in bucket, which a wrong current password counts against
    /// (the pool: the address's key; Cognito: the `sub`).
    /// - Parameter principal: The caller.
    /// - Returns: The bucket's subject.
    /// - Throws: `unauthorized` when the user is gone.
    func signInAccountKey(of principal: Principal) async throws -> String

    /// Checks the current password and changes it (``PasswordAuthentication`` holds the attempt
    /// against the sign-in limits); the caller's other sessions end.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed (the sessions ended), to publish.
    /// - Throws: `unauthorized` when the user is gone, `invalid_credentials`, `invalid_password`.
    func changePassword(
        principal: Principal,
        currentPassword: String,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent]

    /// Checks the caller's current password and changes nothing (step-up; ``PasswordAuthentication``
    /// holds the attempt against the sign-in limits).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - password: The password they sent.
    ///   - client: Who asks.
    /// - Throws: `unauthorized` when the user is gone, `invalid_credentials`.
    func verifyCurrentPassword(principal: Principal, password: String, client: ClientInfo) async throws
}
