import Logging

/// Email and password: sign-up, confirmation, resending the code, sign-in, forgotten and changed
/// passwords. Owns what every provider shares: the input rules (address, display name, code, the
/// provider's password rules checked before any work), the sign-in metrics, and publishing what a
/// flow ended. The provider's strategy does the work against its own backing, with its throttles.
public struct PasswordAuthentication: Sendable {
    let backend: any PasswordBackend
    let events: any AuthEventObserver
    let domainEvents: DomainEvents

    /// Creates the use case.
    /// - Parameters:
    ///   - backend: The active provider's password strategy.
    ///   - events: Where sign-in outcomes are counted.
    ///   - domainEvents: Where what a flow changed is published.
    public init(backend: any PasswordBackend, events: any AuthEventObserver, domainEvents: DomainEvents) {
        self.backend = backend
        self.events = events
        self.domainEvents = domainEvents
    }

    /// Creates an unconfirmed account and mails a code; a taken address gets the same answer.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - password: The password to set.
    ///   - fullName: A display name, if any.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sign-up answer.
    /// - Throws: `invalid_request`, `invalid_password`, `too_many_requests`.
    public func signUp(email rawEmail: String, password: String, fullName: String?, client: ClientInfo, logger: Logger) async throws -> SignUpResult {
        let email = try EmailAddress(rawEmail)
        try backend.checkNewPassword(password, email: email)
        let name = try InputRules.displayName(fullName)
        return try await backend.signUp(email: email, password: password, name: name, client: client, logger: logger)
    }

    /// Confirms the address with the code from the sign-up mail.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - code: The code as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`.
    public func confirmSignUp(email rawEmail: String, code: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        let changed = try await backend.confirmSignUp(email: email, code: InputRules.code(code), client: client, logger: logger)
        domainEvents.publish(changed)
    }

    /// Sends a new confirmation code (the same answer for every address).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request`, `too_many_requests`.
    public func resendConfirmationCode(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        try await backend.resendConfirmationCode(email: try EmailAddress(rawEmail), client: client, logger: logger)
    }

    /// Signs in with email and password (counted under `password`).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - password: The presented password.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`, `too_many_requests`.
    public func signIn(email rawEmail: String, password: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("password") {
            let email = try EmailAddress(rawEmail)
            try backend.checkPresentedPassword(password)
            return try await backend.signIn(email: email, password: password, client: client, logger: logger)
        }
    }

    /// Mails a reset code to the account that owns the address, if any (the same answer for all).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request`, `too_many_requests`.
    public func forgotPassword(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        try await backend.forgotPassword(email: try EmailAddress(rawEmail), client: client, logger: logger)
    }

    /// Sets a new password with the code from the reset mail; every session of the user ends.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - code: The code as typed.
    ///   - newPassword: The new password.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_password`, `code_mismatch`, `code_expired`, `too_many_requests`.
    public func resetPassword(email rawEmail: String, code: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        try backend.checkNewPassword(newPassword, email: email)
        let ended = try await backend.resetPassword(email: email, code: InputRules.code(code), newPassword: newPassword, client: client, logger: logger)
        domainEvents.publish(ended)
    }

    /// Changes the caller's password; their other sessions end.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_credentials`, `invalid_password`, `too_many_requests`.
    public func changePassword(principal: Principal, currentPassword: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let ended = try await backend.changePassword(
            principal: principal, currentPassword: currentPassword, newPassword: newPassword, client: client, logger: logger)
        domainEvents.publish(ended)
    }
}
